#!/usr/bin/env bash
# e2e.sh: end-to-end plaintext benchmark of brisk, fasthttp and net/http.
#
# Builds the three servers of bench/servers (same response: 200,
# Content-Type: text/plain, "Hello, World!"), pins each to core 0 and wrk
# to core 1, and loads them with wrk: non-pipelined (50 connections) and
# pipelined (depth 16, 50 connections), interleaving the servers and
# repeating the rounds so that drift on a shared machine shows. For each
# run it records req/s and the server's CPU time per request (utime+stime
# from /proc/PID/stat, before and after). It writes bench/results/e2e.md
# (table with ratios to fasthttp) and bench/results/e2e.svg (bar chart).
#
# Usage: bench/e2e.sh [-d SECONDS] [-r ROUNDS] [-c CONNS] [-p DEPTH]
#   defaults: -d 5 -r 3 -c 50 -p 16
set -euo pipefail

secs=5 rounds=3 conns=50 depth=16
while getopts "d:r:c:p:" o; do
	case $o in
	d) secs=$OPTARG ;; r) rounds=$OPTARG ;; c) conns=$OPTARG ;; p) depth=$OPTARG ;;
	*) sed -n '2,15p' "$0"; exit 2 ;;
	esac
done

. "$(dirname "$0")/lib.sh"
servers=(brisk fasthttp nethttp)

base=$((20000 + RANDOM % 20000))
for i in "${!servers[@]}"; do
	s=${servers[$i]}
	(cd "$bench" && go build -o "$tmp/$s" "./servers/$s")
	port[$s]=$((base + i))
	"${srvpin[@]}" "$tmp/$s" -addr "127.0.0.1:${port[$s]}" >"$tmp/$s.log" 2>&1 &
	pid[$s]=$!
done
for s in "${servers[@]}"; do
	for _ in $(seq 50); do
		curl -fs "http://127.0.0.1:${port[$s]}/" >/dev/null 2>&1 && break || sleep 0.1
	done
	curl -fs "http://127.0.0.1:${port[$s]}/" >/dev/null || { echo "$s did not start" >&2; cat "$tmp/$s.log" >&2; exit 1; }
done


hz=$(getconf CLK_TCK)

# measure MODE SERVER ROUND: one wrk run; appends "mode server round rps cpu_us_per_req".
measure() {
	local mode=$1 s=$2 round=$3 args=(-t1 -c"$conns" -d"${secs}s" --timeout 10s) before after res rps reqs
	local script=()
	[ "$mode" = pipelined ] && args+=(-s "$bench/pipeline.lua") && script=(-- "$depth")
	before=$(cputicks "${pid[$s]}")
	res=$(timeout $((secs + 30)) "${loadpin[@]}" wrk "${args[@]}" "http://127.0.0.1:${port[$s]}/" "${script[@]}")
	after=$(cputicks "${pid[$s]}")
	rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$res")
	reqs=$(awk '/requests in/ {print $1}' <<<"$res")
	echo "$mode $s $round $rps $(echo "($after - $before) * 1000000 / $hz / $reqs" | bc -l)" >>"$tmp/data"
	printf "%-10s %-9s round %d: %10.0f req/s\n" "$mode" "$s" "$round" "$rps" >&2
}

for round in $(seq "$rounds"); do
	for mode in plain pipelined; do
		order=("${servers[@]}")
		[ $((round % 2)) = 0 ] && order=(nethttp fasthttp brisk) # alternate who goes first
		for s in "${order[@]}"; do measure "$mode" "$s" "$round"; done
	done
done

mkdir -p "$out"
# Aggregate: mean, min and max req/s and mean CPU µs/request per mode and server.
awk -v conns="$conns" -v depth="$depth" -v secs="$secs" -v rounds="$rounds" \
	-v host="$(uname -srm), $(nproc) cores" -v date="$(date -u +%Y-%m-%d)" \
	-v md="$out/e2e.md" -v svg="$out/e2e.svg" '
{ k = $1 " " $2; n[k]++; sum[k] += $4; cpu[k] += $5
  if (!(k in lo) || $4 < lo[k]) lo[k] = $4; if ($4 > hi[k]) hi[k] = $4 }
END {
	split("plain pipelined", modes, " "); split("brisk fasthttp nethttp", srv, " ")
	title["plain"] = "non-pipelined, " conns " connections"
	title["pipelined"] = "pipelined, depth " depth ", " conns " connections"
	print "# End-to-end plaintext benchmark\n" > md
	print "wrk (1 thread) on core 1, server on core 0; " rounds " rounds x " secs " s per server and mode, servers interleaved. " host ", " date ".\n" > md
	print "| mode | server | req/s (mean) | min..max | ratio to fasthttp | CPU µs/request | CPU ratio to fasthttp |" > md
	print "|---|---|---:|---:|---:|---:|---:|" > md
	for (m = 1; m <= 2; m++) for (i = 1; i <= 3; i++) {
		k = modes[m] " " srv[i]; f = modes[m] " fasthttp"
		rps[k] = sum[k] / n[k]; c[k] = cpu[k] / n[k]
	}
	for (m = 1; m <= 2; m++) for (i = 1; i <= 3; i++) {
		k = modes[m] " " srv[i]; f = modes[m] " fasthttp"
		rr[k] = rps[k] / rps[f]; cr[k] = c[k] / c[f]
		printf "| %s | %s | %.0f | %.0f..%.0f | %.2f | %.2f | %.2f |\n", title[modes[m]], srv[i], rps[k], lo[k], hi[k], rr[k], c[k], cr[k] > md
	}
	print "\nTargets for brisk: non-pipelined req/s >= 1.0x fasthttp, pipelined >= 1.3x, CPU per request <= 0.8x." > md
	print "Reproduce: `bench/e2e.sh -d " secs " -r " rounds "` (writes this file and e2e.svg)." > md

	# Bar chart: four groups of three bars, each relative to fasthttp = 1.
	W = 760; H = 360; x0 = 60; y0 = 300; top = 50; gw = 170; bw = 40
	max = 1.2
	for (k in rr) { if (rr[k] > max) max = rr[k]; if (cr[k] > max) max = cr[k] }
	color["brisk"] = "#2b7bb9"; color["fasthttp"] = "#e08a2c"; color["nethttp"] = "#7a9a3a"
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H > svg
	printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n" > svg
	printf "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">Plaintext end to end, relative to fasthttp (= 1.0)</text>\n", x0 > svg
	for (t = 0; t <= max + 0.001; t += 0.5) {
		y = y0 - (y0 - top) * t / max
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", x0, x0 + 4 * gw, y, y, x0 - 6, y + 4, t > svg
	}
	g = 0
	for (q = 1; q <= 2; q++) for (m = 1; m <= 2; m++) {
		gx = x0 + g * gw + 15
		label = (q == 1 ? "req/s, " : "CPU/request, ") (modes[m] == "plain" ? "50 conns" : "pipelined " depth)
		for (i = 1; i <= 3; i++) {
			k = modes[m] " " srv[i]; v = (q == 1 ? rr[k] : cr[k])
			h = (y0 - top) * v / max; x = gx + (i - 1) * (bw + 4)
			printf "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"/>\n", x, y0 - h, bw, h, color[srv[i]] > svg
			printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">%.2f</text>\n", x + bw / 2, y0 - h - 4, v > svg
		}
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", gx + 64, y0 + 18, label > svg
		g++
	}
	printf "<text x=\"%d\" y=\"%d\" fill=\"#555\">higher is better for req/s, lower for CPU/request</text>\n", x0, y0 + 40 > svg
	for (i = 1; i <= 3; i++) printf "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", x0 + 400 + (i - 1) * 100, y0 + 30, color[srv[i]], x0 + 416 + (i - 1) * 100, y0 + 40, srv[i] > svg
	print "</svg>" > svg
}' "$tmp/data"
cp "$tmp/data" "$out/e2e.data"
cat "$out/e2e.md"
