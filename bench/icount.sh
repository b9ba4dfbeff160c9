#!/usr/bin/env bash
# icount.sh: instructions per op of a benchmark, counted by valgrind's
# callgrind: unlike time, the count does not move with the load of a shared
# machine, so it compares implementations when timings are noisy.
#
# Usage: bench/icount.sh DIR BENCH [FUNC]
#   DIR    package directory whose tests hold the benchmark (e.g. bench, wire)
#   BENCH  -bench regexp matching exactly one benchmark
#          (e.g. 'BenchmarkParse/fasthttp/browser$')
#   FUNC   count only the instructions of this function and its callees,
#          by its name as callgrind_annotate prints it
#          (e.g. '(*Parser).ParseRequest'); default: the whole program
#   N      iterations (environment, default 20000)
#
# The benchmark runs twice, N and 3N iterations, and the result is the
# difference divided by 2N: what a run costs once (start-up, the
# runtime.GC the testing package does before each run) cancels out.
#
# Example: for i in brisk fasthttp; do bench/icount.sh bench "BenchmarkArgsParse/$i\$"; done
#
# Needs valgrind (apt-get install valgrind). Valgrind sometimes kills Go
# programs on the RDTSCP of runtime.cputicks under lock contention; runs that
# end without a result are retried (up to 30 times).
set -euo pipefail

dir=$1 bench=$2 fn=${3:-} n=${N:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$(dirname "$0")/../$dir"
CGO_ENABLED=0 go test -c -o "$tmp/t.test" .

# count ITERATIONS prints the instructions of a run of that many iterations.
count() {
	for try in $(seq 1 30); do
		GODEBUG=asyncpreemptoff=1,cpu.avx512f=off GOMAXPROCS=1 GOGC=off \
			valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
			"$tmp/t.test" -test.run '^$' -test.bench "$bench" -test.benchtime "${1}x" \
			>"$tmp/out" 2>/dev/null || true # valgrind may fail at exit
		if grep -q '^Benchmark' "$tmp/out"; then
			if [ -z "$fn" ]; then
				callgrind_annotate "$tmp/cg" 2>/dev/null | grep 'PROGRAM TOTALS' |
					awk '{gsub(",", "", $1); print $1}'
			else
				callgrind_annotate --inclusive=yes "$tmp/cg" 2>/dev/null |
					grep -F "$fn " | head -1 | awk '{gsub(",", "", $1); print $1}'
			fi
			return 0
		fi
	done
	echo "$bench: valgrind gave no result in 30 tries" >&2
	exit 1
}

a=$(count "$n")
b=$(count $((3 * n)))
echo "$bench $(((b - a) / (2 * n))) instructions/op (${fn:-whole program})"
