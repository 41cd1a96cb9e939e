#!/usr/bin/env bash
# The attach → probe → remove soak: many daemon sessions in a row on one busy target, each inserting a
# probe, checking its count against the workload's own and removing it; prints crashes, wrong results, and
# the target's threads and metaspace over the cycles.
# Usage: tests/bench-soak.sh [cycles, default 500] [17|25, the target's JDK]   (from anywhere; builds what it needs)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -q -DskipTests -pl tests -am package dependency:build-classpath \
  -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test >&2
exec java --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED \
  -cp "tests/target/test-classes:$(cat tests/target/bench.cp)" \
  -Dbottlenose.daemon.jar="$root/daemon/target/bottlenose-daemon-all.jar" \
  -Dbottlenose.agent.jar="$root/daemon/target/bottlenose-agent.jar" \
  -Dbottlenose.jdk25.home="${BOTTLENOSE_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}" \
  dev.bottlenose.tests.bench.SoakBenchmark "$@"
