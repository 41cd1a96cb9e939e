#!/bin/sh
# What compiling the consultant's built-in rules costs a search's process (not part of `mvn verify`): a fresh JVM
# per repetition compiles them once and reports its CPU and wall seconds.
# Usage: tests/bench-rule-compile.sh [--reps 7]
set -e
cd "$(dirname "$0")/.."
. tests/bench-classpath.sh
exec java -cp "$CP" dev.bottlenose.tests.bench.RuleCompileBenchmark "$@"
