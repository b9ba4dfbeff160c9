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
#   FROM     analyse this saved go test output instead of running
#            (e.g. FROM=bench/results/bench.txt bench/compare.sh)
#   ROUNDS   times the whole set is run, COUNT runs each time (default 1):
#            rounds interleave the implementations, so that drift on a
#            shared machine spreads over all of them instead of one
#
# Writes bench/results/bench.txt (raw go test output) and
# bench/results/bench.kv.txt (the same with sub-benchmark names in
# benchstat's key=value form: BenchmarkParse/brisk/browser becomes
# BenchmarkParse/impl=brisk/in=browser, so that -col /impl pivots on the
# implementation). Uses benchstat from PATH, else
# golang.org/x/perf/cmd/benchstat@latest through go run.
#
# Finally prints the ratio of each median ns/op and cpu-ns/op (CPU time,
# steadier on a loaded machine) to fasthttp's, and writes that table to
# bench/results/ratios.txt (the README's benchmark table quotes it).
#
# Example: COUNT=5 BT=200ms bench/compare.sh 'BenchmarkParse$|BenchmarkServer'
set -euo pipefail

pattern=${1:-.}
bench=$(cd "$(dirname "$0")" && pwd)
out=$bench/results
mkdir -p "$out"

if [ -n "${FROM:-}" ]; then
	from=$(cd "$(dirname "$FROM")" && pwd)/$(basename "$FROM")
	[ "$from" = "$out/bench.txt" ] || cp "$from" "$out/bench.txt"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$bench" && go test -c -o "$tmp/bench.test" .)
	args=(-test.run '^$' -test.bench "$pattern" -test.count "${COUNT:-6}" -test.benchtime "${BT:-200ms}"
		-test.benchmem -test.timeout 60m)
	[ -n "${CPU:-}" ] && args+=(-test.cpu "$CPU")
	for _ in $(seq "${ROUNDS:-1}"); do
		(cd "$bench" && "$tmp/bench.test" "${args[@]}")
	done | tee "$out/bench.txt"
fi

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

# Ratios of the medians of ns/op and cpu-ns/op to fasthttp's, one row per
# benchmark and unit.
echo
awk '/^Benchmark/ && /impl=/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	match(name, /\/impl=[a-z]+/); impl = substr(name, RSTART + 6, RLENGTH - 6)
	name = substr(name, 1, RSTART - 1) substr(name, RSTART + RLENGTH)
	for (i = 2; i < NF; i++) if ($(i + 1) == "ns/op" || $(i + 1) == "cpu-ns/op") print name, $(i + 1), impl, $i
}' "$out/bench.kv.txt" | sort -k1,1 -k2,2 -k3,3 -k4,4g | awk '
function flush() { if (n) med[key] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; n = 0 }
function ratio(x, f) { return (x == "" || f == "" || f == 0) ? "-" : sprintf("%.2fx", x / f) }
{
	row = $1 " " $2; k = row SUBSEP $3
	if (k != key) { flush(); key = k; if (!(row in seen)) { seen[row] = 1; order[++rows] = row } }
	v[++n] = $4
}
END {
	flush()
	printf "%-56s %12s %16s %18s\n", "median", "fasthttp", "brisk/fasthttp", "nethttp/fasthttp"
	for (r = 1; r <= rows; r++) {
		b = order[r]; f = med[b, "fasthttp"]
		printf "%-56s %12.1f %16s %18s\n", b, f, ratio(med[b, "brisk"], f), ratio(med[b, "nethttp"], f)
	}
}' | tee "$out/ratios.txt"
