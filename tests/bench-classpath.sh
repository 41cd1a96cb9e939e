# Sourced by the benchmark scripts (from the repository root): builds the jars and the test classes unless
# BENCH_SKIP_BUILD is set, and sets CP to the test classes and their class path.
if [ -z "$BENCH_SKIP_BUILD" ]; then
  mvn -q -pl tests -am package -DskipTests dependency:build-classpath \
    -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test
fi
CP="tests/target/test-classes:$(cat tests/target/bench.cp)"
