#!/bin/sh
# bench/h3.sh: GETs of a 1 KiB body on loopback, 32 in flight, over brisk
# HTTP/3 (package h3), quic-go's http3.Server with a plain http.Handler
# (the hand-over's overhead), and brisk h2 and HTTP/1.1 over TLS. Client
# and server share the process, so ns/op is both sides' cost per request
# on a busy machine. The four run interleaved, ROUNDS times (default 7),
# and the medians are printed with their ratio to brisk-h3.
#
#	sh bench/h3.sh [ROUNDS]
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-7}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ "$i" -lt "$rounds" ]; do
	go test -run '^$' -bench '^BenchmarkGet$' -benchtime 3000x -count 1 ./h3/ | grep '^BenchmarkGet/' >>"$out"
	i=$((i + 1))
done
awk '{ name = $1; sub(/^BenchmarkGet\//, "", name); sub(/-[0-9]+$/, "", name); v[name] = v[name] " " $3 }
END {
	for (n in v) {
		k = split(substr(v[n], 2), a, " ")
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		med[n] = (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	for (n in med) printf "%-12s %12d %10.2f\n", n, med[n], med[n] / med["brisk-h3"]
}' "$out" | sort >"$out.sorted"
printf "%-12s %12s %10s\n" server "median ns/op" "vs brisk-h3"
cat "$out.sorted"
rm -f "$out.sorted"
