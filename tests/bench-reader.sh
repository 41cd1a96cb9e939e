#!/bin/sh
# What reading the target's recording costs the tool per event (not part of `mvn verify`): JFR's parser alone and
# with the daemon's handlers (discovery's and a search's sources), on a recording of the real HTTP server program;
# C1 only, as the tool runs.
# Usage: tests/bench-reader.sh [--reps 7] [--rounds 6000]
set -e
cd "$(dirname "$0")/.."
. tests/bench-classpath.sh
exec java -XX:TieredStopAtLevel=1 -cp "$CP" dev.bottlenose.tests.bench.ReaderCostBenchmark "$@"
