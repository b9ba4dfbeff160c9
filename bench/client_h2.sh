#!/usr/bin/env bash
# client_h2.sh: brisk's HTTP/2 client (ClientConfig.HTTP2, package h2)
# against net/http's, BenchmarkClientH2 (client_h2_test.go): the same GET
# to the same net/http HTTP/2 server in a child process, 16 goroutines per
# GOMAXPROCS on one connection per client. The variants run interleaved,
# ROUNDS times, and the script prints each one's median ns/op and
# cpu-ns/op (the client process's CPU time per request) and the ratios
# brisk / nethttp-timeout (both with a 30 s timeout) and brisk-notimeout /
# nethttp (neither).
#
# Usage: bench/client_h2.sh        ROUNDS (default 6), BT (-benchtime, default 2s)
# Writes bench/results/client_h2.txt (raw go test output).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
out=$bench/results/client_h2.txt
rounds=${ROUNDS:-6}
bt=${BT:-2s}
cd "$bench"
go test -c -o /tmp/brisk-client-h2.test . >/dev/null
: >"$out"
for r in $(seq "$rounds"); do
	for v in brisk nethttp-timeout brisk-notimeout nethttp; do
		/tmp/brisk-client-h2.test -test.run '^$' -test.bench "^BenchmarkClientH2/$v\$" \
			-test.benchtime "$bt" -test.count 1 | grep '^BenchmarkClientH2' | tee -a "$out"
	done
done
awk '
/^BenchmarkClientH2\// {
	split($1, a, "/"); v = a[2]; sub(/-[0-9]+$/, "", v)
	for (i = 3; i < NF; i++) {
		if ($(i+1) == "ns/op") ns[v] = ns[v] " " $i
		if ($(i+1) == "cpu-ns/op") cpu[v] = cpu[v] " " $i
	}
}
function median(s,   n, x, i, j, t) {
	n = split(s, x, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
	return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
}
function spread(s,   n, x, i, lo, hi) {
	n = split(s, x, " "); lo = hi = x[1]
	for (i = 2; i <= n; i++) { if (x[i] < lo) lo = x[i]; if (x[i] > hi) hi = x[i] }
	return lo "-" hi
}
END {
	printf "%-16s %12s %12s %22s\n", "variant", "ns/op", "cpu-ns/op", "cpu-ns/op min-max"
	for (v in ns) printf "%-16s %12.0f %12.0f %22s\n", v, median(ns[v]), median(cpu[v]), spread(cpu[v])
	printf "\nbrisk / nethttp-timeout:  ns/op %.2f  cpu-ns/op %.2f\n", median(ns["brisk"]) / median(ns["nethttp-timeout"]), median(cpu["brisk"]) / median(cpu["nethttp-timeout"])
	printf "brisk-notimeout / nethttp: ns/op %.2f  cpu-ns/op %.2f\n", median(ns["brisk-notimeout"]) / median(ns["nethttp"]), median(cpu["brisk-notimeout"]) / median(cpu["nethttp"])
}' "$out"
