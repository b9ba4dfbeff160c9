#!/bin/sh
# bench/h3.sh: GETs of a 1 KiB and a 1 MiB body on loopback, 32 in
# flight from a client in a child process, over brisk HTTP/3 (package
# h3), quic-go's http3.Server with a plain http.Handler (the hand-over's
# overhead), and brisk h2 and HTTP/1.1 over TLS: BenchmarkGet in
# h3/bench_test.go. Per round, each test binary runs each server in turn,
# each in a process of its own (the first benchmark of a process starts
# with a cold heap and pools), in the opposite order every other round
# (3000 requests of 1 KiB, 200 of 1 MiB); the medians over ROUNDS
# (default 7) of the server's CPU time per request (cpu-ns/op, user and
# system, from getrusage), of its allocations and of the wall time per
# request are printed, with the median over the rounds of the CPU ratio to
# quic-go-h3 of the same size, binary and round, and its spread (lowest
# and highest).
#
#	[SIZES='1KiB 1MiB'] [SERVERS=regexp] sh bench/h3.sh [ROUNDS [TESTBIN...]]
#
# SERVERS selects servers (brisk-h3, quic-go-h3, brisk-h2, brisk-h1; all
# by default; the ratio needs quic-go-h3).
# With no TESTBIN the h3 package's test binary is built from this tree;
# several (go test -c -o x.test ./h3/ at different commits) are
# interleaved round by round, to compare commits in one run.
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-7}
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
	go test -c -o "$tmp/h3.test" ./h3/
	set -- "$tmp/h3.test"
fi
servers=$(printf '%s\n' brisk-h3 quic-go-h3 brisk-h2 brisk-h1 | grep -E "^(${SERVERS:-.*})\$")
i=0
while [ "$i" -lt "$rounds" ]; do
	order=$servers
	[ $((i % 2)) -eq 1 ] && order=$(printf '%s\n' $servers | awk '{ a[NR] = $0 } END { for (i = NR; i > 0; i--) print a[i] }') # ABBA: drift cancels
	for bin in "$@"; do
		for size in ${SIZES:-1KiB 1MiB}; do
			n=3000x
			[ "$size" = 1MiB ] && n=200x
			for srv in $order; do
				"$bin" -test.run '^$' -test.bench "^BenchmarkGet/$size/$srv\$" -test.benchtime "$n" -test.count 1 |
					awk -v bin="$bin" -v round="$i" '/^BenchmarkGet\// { print bin, round, $1, $3, $5, $9 }' >>"$tmp/raw"
			done
		done
	done
	i=$((i + 1))
done
echo "raw: binary round benchmark ns/op cpu-ns/op srv-allocs/op"
cat "$tmp/raw"
echo
awk '
function median(s,   a, k, i, j, t) {
	k = split(substr(s, 2), a, " ")
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	lo = a[1]; hi = a[k]
	return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
{
	name = $3; sub(/^BenchmarkGet\//, "", name); sub(/-[0-9]+$/, "", name)
	key = $1 " " name
	wall[key] = wall[key] " " $4; cpu[key] = cpu[key] " " $5; allocs[key] = allocs[key] " " $6
	c[$1 " " $2 " " name] = $5
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
}
END {
	printf "%-16s %-16s %11s %10s %7s %9s %11s\n", "binary", "server", "wall ns/op", "cpu-ns/op", "allocs", "cpu/quic", "spread"
	for (i = 1; i <= n; i++) {
		split(order[i], kb, " "); bin = kb[1]; name = kb[2]
		split(name, p, "/")
		ratios = ""
		for (r = 0; (bin " " r " " name) in c; r++) {
			q = c[bin " " r " " p[1] "/quic-go-h3"]
			if (q != "") ratios = ratios " " c[bin " " r " " name] / q
		}
		bn = bin; sub(/.*\//, "", bn)
		printf "%-16s %-16s %11d %10d %7.1f", bn, name, median(wall[order[i]]), median(cpu[order[i]]), median(allocs[order[i]])
		if (ratios != "") { m = median(ratios); printf " %9.3f %5.2f..%-5.2f", m, lo, hi }
		printf "\n"
	}
}' "$tmp/raw"
