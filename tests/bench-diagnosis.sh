#!/bin/sh
# The diagnosis benchmark (not part of `mvn verify`): programs with known answers (tests/src/test/java/diag),
# each searched with `bottlenose search --pid N --budget B --max-time T --json` a few seconds after it starts;
# writes tests/target/bench-diagnosis/results.tsv (one line a run) and summary.md (a table per budget).
# Usage: tests/bench-diagnosis.sh [--budgets 0.01,0.05] [--reps 1] [--programs hot-loop,idle] [--max-time 60]
#                                 [--lead 4] [--out DIR]
set -e
cd "$(dirname "$0")/.."
. tests/bench-classpath.sh
exec java -cp "$CP" dev.bottlenose.tests.bench.DiagnosisBenchmark "$@"
