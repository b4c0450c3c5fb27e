# Sourced by bin/quanta and simulator/simulate.sh: whether a build they made is older than the sources.

# quanta_sources_changed_since ROOT STAMP: true when STAMP is missing or any POM or main source/resource of a module
# under ROOT is newer than it (the build that wrote STAMP did not see them).
quanta_sources_changed_since() {
  [ -f "$2" ] || return 0
  [ -n "$(find "$1/pom.xml" "$1"/*/pom.xml "$1"/*/src/main -newer "$2" -type f -print -quit 2>/dev/null)" ]
}
