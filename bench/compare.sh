#!/usr/bin/env bash
# compare.sh: run the in-process twins of bench/ and print a benchstat table
# with one column per implementation, fasthttp first (the baseline that the
# other columns' "vs base" is relative to).
#
# Usage: bench/compare.sh [PATTERN]
#   PATTERN  go test -bench regexp (default "." : every twin)
#   COUNT    runs of each benchmark (default 6)
#   BT       -benchtime (default 200ms)
#   CPU      -cpu list (default: go test's, GOMAXPROCS)
#
# Writes bench/results/bench.txt (raw go test output) and
# bench/results/bench.kv.txt (the same with sub-benchmark names in
# benchstat's key=value form: BenchmarkParse/brisk/browser becomes
# BenchmarkParse/impl=brisk/in=browser, so that -col /impl pivots on the
# implementation). Uses benchstat from PATH, else
# golang.org/x/perf/cmd/benchstat@latest through go run.
#
# Finally prints the ratio of each median ns/op to fasthttp's.
#
# Example: COUNT=5 BT=200ms bench/compare.sh 'BenchmarkParse$|BenchmarkServer'
set -euo pipefail

pattern=${1:-.}
bench=$(cd "$(dirname "$0")" && pwd)
out=$bench/results
mkdir -p "$out"

args=(test -run '^$' -bench "$pattern" -count "${COUNT:-6}" -benchtime "${BT:-200ms}" -timeout 60m)
[ -n "${CPU:-}" ] && args+=(-cpu "$CPU")
(cd "$bench" && go "${args[@]}" .) | tee "$out/bench.txt"

# Rewrite names: the element naming an implementation becomes impl=NAME,
# the other plain elements are joined by "." into in=VALUE, elements
# already in key=value form and the -GOMAXPROCS suffix are kept.
awk '
/^Benchmark/ {
	name = $1; procs = ""
	if (match(name, /-[0-9]+$/)) { procs = substr(name, RSTART); name = substr(name, 1, RSTART - 1) }
	n = split(name, part, "/")
	impl = ""; in_ = ""; kv = ""
	for (i = 2; i <= n; i++) {
		if (part[i] ~ /^(brisk|fasthttp|nethttp)$/) impl = part[i]
		else if (part[i] ~ /=/) kv = kv "/" part[i]
		else in_ = in_ (in_ == "" ? "" : ".") part[i]
	}
	if (impl != "") {
		new = part[1] "/impl=" impl (in_ == "" ? "" : "/in=" in_) kv procs
		$0 = new substr($0, length($1) + 1)
	}
}
{ print }
' "$out/bench.txt" >"$out/bench.kv.txt"

if command -v benchstat >/dev/null; then
	benchstat=(benchstat)
else
	benchstat=(go run golang.org/x/perf/cmd/benchstat@latest)
fi
echo
"${benchstat[@]}" -col '/impl@(fasthttp brisk nethttp)' "$out/bench.kv.txt"

# Ratios of median ns/op to fasthttp's, one row per benchmark.
echo
awk '/^Benchmark/ && /impl=/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	match(name, /\/impl=[a-z]+/); impl = substr(name, RSTART + 6, RLENGTH - 6)
	name = substr(name, 1, RSTART - 1) substr(name, RSTART + RLENGTH)
	for (i = 2; i < NF; i++) if ($(i + 1) == "ns/op") print name, impl, $i
}' "$out/bench.kv.txt" | sort -k1,1 -k2,2 -k3,3g | awk '
function flush() { if (n) med[key] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; n = 0 }
{ k = $1 SUBSEP $2; if (k != key) { flush(); key = k; if (!($1 in seen)) { seen[$1] = 1; order[++rows] = $1 } } v[++n] = $3 }
END {
	flush()
	printf "%-48s %14s %16s %18s\n", "median ns/op", "fasthttp", "brisk/fasthttp", "nethttp/fasthttp"
	for (r = 1; r <= rows; r++) {
		b = order[r]; f = med[b, "fasthttp"]
		printf "%-48s %14.1f %16s %18s\n", b, f, ratio(med[b, "brisk"], f), ratio(med[b, "nethttp"], f)
	}
}
function ratio(x, f) { return (x == "" || f == "" || f == 0) ? "-" : sprintf("%.2fx", x / f) }'
