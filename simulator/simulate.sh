#!/usr/bin/env bash
# Runs the trace simulator from a build of this checkout.
#   simulator/simulate.sh --trace ../shared/traces/philly_dev_slice_2000.csv --cluster 2x12x8 --compare fifo,quanta
#     is `bin/quanta simulate ...` (the one entry; bin/quanta builds the cli when its sources changed)
#   simulator/simulate.sh --bench ../shared/traces/philly_dev.csv 3x32x8 tiresias-las realistic
#   simulator/simulate.sh --suite --philly ../shared/traces/philly_dev.csv --alibaba ... (see evaluate.sh --suite)
#     run from this checkout's own build (the simulator's classes and the other modules' jars under their target/,
#     never the ones installed in ~/.m2, which a build of another checkout may have replaced), made again when a pom
#     or a main source of any module has changed since (as bin/quanta does; or with QUANTA_SIM_REBUILD=1), so that a
#     run never measures stale code or another checkout's. The rebuild replaces those jars: do not start a run after
#     an edit while another run of this checkout is going.
# JVM options: QUANTA_SIM_JAVA_OPTS (default -Xmx2g).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "${1:-}" != --bench ] && [ "${1:-}" != --suite ]; then
  QUANTA_JAVA_OPTS="${QUANTA_SIM_JAVA_OPTS:--Xmx2g}" exec "$here/bin/quanta" simulate "$@"
fi
. "$here/bin/lib/find-java.sh"
quanta_find_java || exit 1
cp_file="$here/simulator/target/simulate.classpath"
. "$here/bin/lib/sources-changed.sh"
if [ "${QUANTA_SIM_REBUILD:-0}" = 1 ] || quanta_sources_changed_since "$here" "$cp_file"; then
  echo "simulate.sh: sources changed since the last build: building the simulator's modules (mvn package)" >&2
  # one reactor build: the simulator's pom writes $cp_file with the modules' jars under their own target/
  "$here/bin/mvn" -q -B -pl simulator -am package -DskipTests
  # the build is current now even where the class path file kept its content (as bin/quanta marks its build)
  touch "$cp_file"
  touch "$cp_file"
fi
main=io.quanta.sim.suite.SuiteMain
if [ "$1" = --bench ]; then
  main=io.quanta.sim.bench.SimulationBenchmark
fi
shift
# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" ${QUANTA_SIM_JAVA_OPTS:--Xmx2g} -cp "$here/simulator/target/classes:$(cat "$cp_file")" "$main" "$@"
