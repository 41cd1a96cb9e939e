#!/usr/bin/env bash
# Measures the agent's footprint in a target (heap, metaspace, RSS) with 1,000 probes active.
# Usage: tests/bench-footprint.sh [repetitions]   (from anywhere; builds what it needs)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -q -DskipTests -pl tests -am package dependency:build-classpath \
  -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test >&2
exec java -cp "tests/target/test-classes:$(cat tests/target/bench.cp)" \
  -Dbottlenose.daemon.jar="$root/daemon/target/bottlenose-daemon-all.jar" \
  -Dbottlenose.agent.jar="$root/daemon/target/bottlenose-agent.jar" \
  dev.bottlenose.tests.bench.FootprintBenchmark "$@"
