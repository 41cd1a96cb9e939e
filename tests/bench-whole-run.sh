#!/bin/sh
# What a search costs a program's whole run (not part of `mvn verify`): a program with a fixed amount of work,
# alone, under a JFR default recording started with it (jfr) or 1.5 s in by jcmd (jfr-attach), and searched at each
# budget from 1.5 s in (attach and the tool's own processes included); modes interleaved and rotated. Writes
# tests/target/bench-whole-run/results.tsv and summary.md, and per search run its command's CPU by thread
# (tool-threads-<mode>-<rep>.tsv) and its saved search (search-<mode>-<rep>.json).
# Usage: tests/bench-whole-run.sh [--program diag.real.JettyOrdersApi] [--rounds 26000] [--reps 3]
#                                 [--modes alone,jfr,jfr-attach,1%,5%] [--lead 1.5] [--target-java PATH] [--out DIR]
# --target-java runs the program and jcmd on another JDK (e.g. a JDK 25's bin/java); the tool runs on this one.
# A search mode ending in :process (1%:process) runs its daemon in a process of its own; one ending in :serve
# (1%:serve) is a search a running `bottlenose serve` makes (one service, warmed by one search first); one ending in :agent
# (1%:agent) searches a program started with -javaagent:bottlenose-agent.jar (the agent waits for a daemon), and
# mode agent is that program never searched.
set -e
cd "$(dirname "$0")/.."
. tests/bench-classpath.sh
exec java -cp "$CP" dev.bottlenose.tests.bench.WholeRunBenchmark "$@"
