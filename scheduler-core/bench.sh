#!/usr/bin/env bash
# Builds and runs the scheduling-core JMH benchmarks (src/jmh/java, Maven profile "bench").
# Arguments go to JMH, e.g.:  scheduler-core/bench.sh -p policy=tiresias-las -p gpus=1000,10000 -wi 2 -i 3
# or, first argument "cpu": median thread-CPU time per pass as a Markdown table (for a loaded, shared machine):
#   scheduler-core/bench.sh cpu 1000,10000,100000 tiresias-las,gandiva STEADY,TYPICAL
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/bin/lib/find-java.sh"
quanta_find_java || exit 1
"$root/bin/mvn" -q -B -pl scheduler-core -Pbench test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
cd "$root/scheduler-core"
cp="target/jmh-classes:target/test-classes:target/classes:$(cat target/bench.classpath)"
if [ "${1:-}" = cpu ]; then
  shift
  exec "$JAVA_HOME/bin/java" -Xms1g -Xmx2g -cp "$cp" io.quanta.core.bench.PassCpuTable "$@"
fi
exec "$JAVA_HOME/bin/java" -cp "$cp" org.openjdk.jmh.Main "$@"
