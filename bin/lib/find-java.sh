# Sourced by bin/quanta, bin/mvn and .ci/run: sets JAVA_HOME to a JDK 21 or newer.
# Order: JAVA_HOME if new enough, then the newest JDK under the standard places, then `java` on PATH.
# Stops with one clear line when none is found.

quanta_java_major() { # $1 = path to a java binary; prints its major version or nothing
  local v
  v=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1)
  case "$v" in 1.*) v=${v#1.}; v=${v%%.*} ;; esac
  [ -n "$v" ] && echo "$v"
}

quanta_find_java() {
  local min=21 best="" best_v=0 cand v
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    v=$(quanta_java_major "$JAVA_HOME/bin/java")
    if [ -n "$v" ] && [ "$v" -ge "$min" ] && [ -x "$JAVA_HOME/bin/javac" ]; then return 0; fi
  fi
  for cand in /usr/lib/jvm/* /usr/java/* /opt/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
    [ -x "$cand/bin/java" ] && [ -x "$cand/bin/javac" ] || continue
    v=$(quanta_java_major "$cand/bin/java")
    [ -n "$v" ] || continue
    if [ "$v" -ge "$min" ] && [ "$v" -gt "$best_v" ]; then best=$cand; best_v=$v; fi
  done
  if [ -z "$best" ] && command -v javac >/dev/null 2>&1; then
    cand=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    v=$(quanta_java_major "$cand/bin/java")
    if [ -n "$v" ] && [ "$v" -ge "$min" ]; then best=$cand; fi
  fi
  if [ -z "$best" ]; then
    echo "quanta: needs a JDK 21 or newer (found none in JAVA_HOME, /usr/lib/jvm or on PATH); install one, e.g. 'apt install openjdk-21-jdk' or Temurin 21+, or set JAVA_HOME to it." >&2
    return 1
  fi
  export JAVA_HOME=$best
}
