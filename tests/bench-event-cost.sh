#!/bin/sh
# What one JFR event costs the program that commits it, with and without its stack trace (not part of
# `mvn verify`): the per-event figure the cost model charges for a search's watched sources.
# Usage: tests/bench-event-cost.sh [--reps 5] [--parks 15000]
set -e
cd "$(dirname "$0")/.."
. tests/bench-classpath.sh
exec java -cp "$CP" dev.bottlenose.tests.bench.EventCostBenchmark "$@"
