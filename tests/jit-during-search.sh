#!/bin/bash
# What a benchmark workload's JIT compiles during one search, against the same time at rest (not part of `mvn verify`).
# Starts the workload with -XX:+PrintCompilation, attaches a daemon (`bottlenose daemon --pid`), waits 75 s
# for the attach's aftermath, then takes 20 s at rest and 20 s with `bottlenose search --budget BUDGET`
# (which reuses that daemon): the methods compiled in each (by package) and the CPU of the target's threads.
# Usage: tests/jit-during-search.sh [compute|mixed] [1%]   (results in tests/target/jit-during-search/)
set -euo pipefail
cd "$(dirname "$0")/.."
workload=${1:-compute}; budget=${2:-1%}
case $workload in
  compute) main=dev.bottlenose.tests.bench.compute.ComputeWorkload ;;
  mixed) main=dev.bottlenose.tests.bench.mixed.MixedWorkload ;;
  *) echo "unknown workload '$workload' (compute or mixed)" >&2; exit 2 ;;
esac
out=tests/target/jit-during-search/$workload-${budget%\%}
mkdir -p "$out"
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  mvn -q -pl tests -am package -DskipTests dependency:build-classpath \
    -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test
fi
cp="tests/target/test-classes:$(cat tests/target/bench.cp)"

# CPU ms per second of each of the target's threads over $2 seconds, busiest first.
threads() {
  snap() {
    for t in /proc/$1/task/*; do
      s=$(cat "$t/stat" 2>/dev/null) || continue
      name=${s#*(}; name=${name%)*}; rest=${s##*) }
      set -- $rest
      echo "$(basename "$t")|$name|$((${12} + ${13}))"
    done | sort
  }
  local a; a=$(snap "$1"); sleep "$2"
  join -t'|' -j1 <(echo "$a") <(snap "$1") |
    awk -F'|' -v s="$2" '{d = $5 - $3; if (d > 0) printf "%8.1f ms/s  %s\n", d * 1000 / 100 / s, $2}' | sort -rn
}
packages() {
  awk '{for (i = 1; i <= NF; i++) if ($i ~ /::/) {sub(/::.*/, "", $i); sub(/\.[^.]*$/, "", $i); print $i; break}}' "$1" |
    sort | uniq -c | sort -rn
}

stdin=$(mktemp -u); mkfifo "$stdin"
sleep 100000 > "$stdin" &
holder=$!
java -Xms256m -Xmx256m -XX:+PrintCompilation -Dbench.units="$out/units.bin" -cp "$cp" "$main" \
  < "$stdin" > "$out/compilation.txt" 2>&1 &
target=$!
daemon=""
trap 'kill $daemon $target $holder 2>/dev/null; rm -f "$stdin"' EXIT
sleep 15
./bottlenose daemon --pid "$target" > "$out/daemon.log" 2>&1 &
daemon=$!
sleep 75
n0=$(wc -l < "$out/compilation.txt")
threads "$target" 20 > "$out/rest-threads.txt"
n1=$(wc -l < "$out/compilation.txt")
./bottlenose search --pid "$target" --budget "$budget" --max-time 20s > "$out/search.out" 2> "$out/search.err" &
search=$!
threads "$target" 20 > "$out/search-threads.txt"
wait $search
sleep 3
n2=$(wc -l < "$out/compilation.txt")
sed -n "$((n0 + 1)),${n1}p" "$out/compilation.txt" > "$out/rest-compiled.txt"
sed -n "$((n1 + 1)),${n2}p" "$out/compilation.txt" > "$out/search-compiled.txt"
packages "$out/rest-compiled.txt" > "$out/rest-packages.txt"
packages "$out/search-compiled.txt" > "$out/search-packages.txt"
echo "$workload, 20 s at rest: $((n1 - n0)) compilations; 20 s of a $budget search: $((n2 - n1)) (in $out)"
echo "busiest threads at rest / during the search (ms of CPU a second):"
paste <(head -8 "$out/rest-threads.txt") <(head -8 "$out/search-threads.txt")
echo "packages compiled during the search:"
head -12 "$out/search-packages.txt"
