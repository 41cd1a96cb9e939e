#!/bin/sh
# The target's slowdown with a search running at each overhead budget (not part of `mvn verify`).
# Builds the daemon jars and the test classes, then runs SearchOverheadBenchmark; results go to
# tests/target/bench-search/ (results.tsv per window, summary.md).
# Usage: tests/bench-search.sh [--reps 3] [--control twin|none] [--budgets 0.01,0.02,0.05,0.10] [--workloads compute,mixed]
#                              [--warmup 8] [--window 20] [--settle 60] [--jvm "-Xms256m -Xmx256m"] [--out DIR]
#                              [--set "search.skip=sync_wait;key=value"]   (consultant settings for every search)
#        tests/bench-search.sh --from tests/target/bench-search/results.tsv[,other.tsv…]   (summarise only; several files pool their repetitions)
set -e
cd "$(dirname "$0")/.."
. tests/bench-classpath.sh
exec java -Dbottlenose.daemon.jar=daemon/target/bottlenose-daemon-all.jar -cp "$CP" \
  dev.bottlenose.tests.bench.SearchOverheadBenchmark --out tests/target/bench-search "$@"
