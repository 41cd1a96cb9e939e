#!/bin/sh
# What one period of the agent's lock samples costs the program, by its number of threads (not part of
# `mvn verify`): the per-period figure the cost model charges a lock-sample source.
# Usage: tests/bench-lock-sample-cost.sh [--reps 5] [--threads 40,200,1000] [--calls 2000]
set -e
cd "$(dirname "$0")/.."
. tests/bench-classpath.sh
exec java -cp "$CP" dev.bottlenose.tests.bench.LockSampleCostBenchmark "$@"
