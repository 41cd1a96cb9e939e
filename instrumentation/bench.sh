#!/bin/sh
# Runs the instrumentation benchmarks (not part of `mvn verify`): JMH probe overhead, then insert/remove times.
# Usage: instrumentation/bench.sh [extra JMH options]   (defaults: 2 forks x 5 iterations x 1 s, 3 warm-up iterations)
set -e
cd "$(dirname "$0")/.."
mvn -q -pl instrumentation -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test
CP="instrumentation/target/test-classes:instrumentation/target/classes:$(cat instrumentation/target/bench.cp)"
java -cp "$CP" org.openjdk.jmh.Main ProbeOverheadBenchmark -f 2 -wi 3 -w 1 -i 5 -r 1 "$@"
java -Djdk.attach.allowAttachSelf=true -cp "$CP" dev.bottlenose.instrumentation.InsertRemoveBenchmark 200
