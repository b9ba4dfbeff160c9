#!/usr/bin/env bash
# proxy.sh: brisk's reverse proxy side by side with nginx (proxy_pass with
# upstream keepalive), HAProxy, net/http's httputil.ReverseProxy and a
# fasthttp HostClient proxy, in front of one brisk upstream.
#
# Each proxy runs pinned to core 0 (nginx and HAProxy with one worker
# thread); the load generator and the upstream share core 1. For each
# mode and each proxy the load runs for SECONDS over CONNS connections:
#   plaintext  wrk -t1, a 13-byte response
#   64k        wrk -t1, a 64 KiB response
#   pipelined  wrk -t1 -s pipeline.lua, 16 requests per write (plaintext)
#   ws         proxies/wsload: a WebSocket echo through the proxy, one
#              100-byte message in flight per connection (messages, not
#              requests; fasthttp's proxy has no upgrade pass-through)
#   rate       brisk load -rate RATE: plaintext at a fixed rate, the same
#              load for every proxy, latency counted from each request's
#              intended send time (p99 at the same load)
# The script records requests/s, the p99 latency, and the proxy's CPU
# time (utime+stime from /proc/PID/stat, before and after), hence
# requests per CPU-second of the proxy. The proxies take turns
# within each round (the order rotates every round), so that drift on a
# shared machine spreads over all of them; the table gives the medians
# over the rounds. Results: bench/results/proxy.md (and proxy.data, one
# line per run, with the proxy's user and kernel CPU time per request);
# bench/results/proxy-notes.md, when present, is appended to proxy.md.
#
# The Go proxies (brisk, httputil, fasthttp) run with GOMAXPROCS=PROCS on
# their one core: with GOMAXPROCS=1 (the default on one core) the
# runtime's monitor takes the only P away from a thread in a system call
# after 20 us whenever no P is idle, and hands it to another thread (a
# futex wake-up and a context switch on the same core), which a proxy
# copying 64 KiB per system call pays on most requests.
#
# Usage: bench/proxy.sh [-d SECONDS] [-r ROUNDS] [-c CONNS] [-g PROCS] [-m MODES]
#                       [-p PROXIES] [-b BINARY] [-R RATE]
#   defaults: -d 5 -r 3 -c 64 -g 2 -m plaintext,64k,pipelined,ws,rate -R 2000
#   -p brisk,nginx,haproxy,httputil,fasthttp. -b adds the proxy "base":
#   `BINARY proxy`, another build of cmd/brisk (before a change), to
#   compare with brisk in the same interleaved rounds. Needs
#   nginx and haproxy (apt-get install nginx-light haproxy); wrk is
#   installed when missing.
set -euo pipefail

secs=5 rounds=3 conns=64 procs=2 modes=plaintext,64k,pipelined,ws,rate proxies=brisk,nginx,haproxy,httputil,fasthttp base= rate=2000
while getopts "d:r:c:g:m:p:b:R:" o; do
	case $o in
	d) secs=$OPTARG ;; r) rounds=$OPTARG ;; c) conns=$OPTARG ;; g) procs=$OPTARG ;; m) modes=$OPTARG ;;
	p) proxies=$OPTARG ;; b) base=$(realpath "$OPTARG") ;; R) rate=$OPTARG ;;
	*) sed -n '2,44p' "$0"; exit 2 ;;
	esac
done
IFS=, read -r -a modes <<<"$modes"
plist=$proxies
IFS=, read -r -a proxies <<<"$proxies"
[ -z "$base" ] || proxies+=(base)
source "$(dirname "$0")/lib.sh"
for cmd in nginx haproxy; do
	command -v $cmd >/dev/null || { echo "$cmd not installed (apt-get install nginx-light haproxy)" >&2; exit 1; }
done

(cd "$bench/.." && go build -o "$tmp/brisk" ./cmd/brisk)
for p in upstream httputil fasthttp wsload; do
	(cd "$bench" && go build -o "$tmp/$p" "./proxies/$p")
done

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
up=$(free_port)
"${loadpin[@]}" "$tmp/upstream" -addr "127.0.0.1:$up" &
pid[upstream]=$!

for p in brisk nginx haproxy httputil fasthttp base; do port[$p]=$(free_port); done
has() { [[ " ${proxies[*]} " == *" $1 "* ]]; }

cat >"$tmp/nginx.conf" <<CFG
daemon off;
master_process off;
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/nginx.err warn;
events { worker_connections 4096; }
http {
	access_log off;
	upstream up { server 127.0.0.1:$up; keepalive 256; }
	server {
		listen 127.0.0.1:${port[nginx]};
		location / {
			proxy_pass http://up;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
			proxy_buffers 16 16k;
		}
		location /ws {
			proxy_pass http://up;
			proxy_http_version 1.1;
			proxy_set_header Upgrade \$http_upgrade;
			proxy_set_header Connection "upgrade";
			proxy_read_timeout 60s;
		}
	}
}
CFG
cat >"$tmp/haproxy.cfg" <<CFG
global
	nbthread 1
	maxconn 4096
defaults
	mode http
	timeout connect 2s
	timeout client 30s
	timeout server 30s
	timeout tunnel 60s
	option forwardfor
	http-reuse always
frontend fe
	bind 127.0.0.1:${port[haproxy]}
	default_backend be
backend be
	server up 127.0.0.1:$up maxconn 1024
CFG

if has brisk; then
	GOMAXPROCS=$procs "${srvpin[@]}" "$tmp/brisk" proxy -listen "127.0.0.1:${port[brisk]}" -to "http://127.0.0.1:$up" >/dev/null 2>&1 &
	pid[brisk]=$!
fi
if has base; then
	GOMAXPROCS=$procs "${srvpin[@]}" "$base" proxy -listen "127.0.0.1:${port[base]}" -to "http://127.0.0.1:$up" >/dev/null 2>&1 &
	pid[base]=$!
fi
if has nginx; then
	"${srvpin[@]}" nginx -p "$tmp" -c "$tmp/nginx.conf" -e "$tmp/nginx.err" &
	pid[nginx]=$!
fi
if has haproxy; then
	"${srvpin[@]}" haproxy -db -f "$tmp/haproxy.cfg" >/dev/null 2>&1 &
	pid[haproxy]=$!
fi
if has httputil; then
	GOMAXPROCS=$procs "${srvpin[@]}" "$tmp/httputil" -addr "127.0.0.1:${port[httputil]}" -to "http://127.0.0.1:$up" &
	pid[httputil]=$!
fi
if has fasthttp; then
	GOMAXPROCS=$procs "${srvpin[@]}" "$tmp/fasthttp" -addr "127.0.0.1:${port[fasthttp]}" -to "127.0.0.1:$up" &
	pid[fasthttp]=$!
fi

for p in "${proxies[@]}"; do
	for try in $(seq 1 100); do
		curl -sf -o /dev/null "http://127.0.0.1:${port[$p]}/" && break
		[ "$try" -lt 100 ] || { echo "$p: no answer" >&2; exit 1; }
		sleep 0.1
	done
done

clk=$(getconf CLK_TCK)
data=$out/proxy.data
cmdline="bench/proxy.sh -d $secs -r $rounds -c $conns -g $procs -m $(IFS=,; echo "${modes[*]}") -R $rate"
[ -z "$base" ] || cmdline="$cmdline -b BASE"
[ "$plist" = brisk,nginx,haproxy,httputil,fasthttp ] || cmdline="$cmdline -p $plist"
echo "# proxy mode round rps p99_us cpu_s rps_per_cpu user_us_per_req kernel_us_per_req ($cmdline, $(date -u +%FT%TZ))" >"$data"

# usersys prints a process's utime and stime in clock ticks.
usersys() { awk '{print $14, $15}' "/proc/$1/stat"; }

# us converts a wrk latency ("812.00us", "1.20ms", "2.00s") to microseconds.
us() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /ms$/) n *= 1000; else if (v ~ /[0-9]s$/ && v !~ /us$/) n *= 1000000; printf "%.0f", n }'; }

# load runs mode's load against proxy p for secs and prints "rps p99_us"
# (rps: messages per second for ws).
load() {
	local p=$1 mode=$2 url="http://127.0.0.1:${port[$1]}"
	case $mode in
	ws)
		"${loadpin[@]}" "$tmp/wsload" -addr "127.0.0.1:${port[$p]}" -c "$conns" -d "${secs}s" 2>"$tmp/wsload.err"
		[ ! -s "$tmp/wsload.err" ] || echo "$p $mode: $(sort "$tmp/wsload.err" | uniq -c | head -3)" >&2
		return ;;
	rate)
		"${loadpin[@]}" "$tmp/brisk" load -rate "$rate" -c "$conns" -d "${secs}s" -json "$url/" |
			python3 -c 'import json, sys; r = json.load(sys.stdin); print("%.0f %d" % (r["requests_per_second"], r["latency_us"]["p99"]))'
		return ;;
	plaintext) "${loadpin[@]}" wrk -t1 -c"$conns" -d"${secs}s" --latency "$url/" >"$tmp/wrk.out" ;;
	64k) "${loadpin[@]}" wrk -t1 -c"$conns" -d"${secs}s" --latency "$url/64k" >"$tmp/wrk.out" ;;
	pipelined) "${loadpin[@]}" wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$bench/pipeline.lua" "$url/" -- 16 >"$tmp/wrk.out" ;;
	esac
	errs=$(awk '/Non-2xx|Socket errors/' "$tmp/wrk.out")
	[ -z "$errs" ] || echo "$p $mode: $errs" >&2
	p99=$(us "$(awk '$1 == "99%" {print $2}' "$tmp/wrk.out")")
	[ "$mode" != pipelined ] || p99=- # wrk's latency percentiles are broken with pipelining (99%: 0.00us)
	echo "$(awk '/^Requests\/sec/ {print $2}' "$tmp/wrk.out") $p99"
}

for round in $(seq 1 "$rounds"); do
	n=${#proxies[@]}
	for mode in "${modes[@]}"; do
		for k in $(seq 0 $((n - 1))); do
			p=${proxies[$(((k + round) % n))]}
			[ "$mode" != ws ] || [ "$p" != fasthttp ] || continue
			read -r ub kb < <(usersys "${pid[$p]}")
			read -r rps p99 < <(load "$p" "$mode")
			read -r ua ka < <(usersys "${pid[$p]}")
			cpu=$(awk -v t=$((ua + ka - ub - kb)) -v c="$clk" 'BEGIN { printf "%.2f", t / c }')
			per=$(awk -v r="$rps" -v s="$secs" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0 ? r * s / c : 0) }')
			split=$(awk -v u=$((ua - ub)) -v k=$((ka - kb)) -v c="$clk" -v r="$rps" -v s="$secs" \
				'BEGIN { n = r * s; printf "%.1f %.1f", (n > 0 ? u / c / n * 1e6 : 0), (n > 0 ? k / c / n * 1e6 : 0) }')
			echo "$p $mode $round $rps $p99 $cpu $per $split" | tee -a "$data"
		done
	done
done

# The table: medians over the rounds, and brisk's requests per CPU-second
# over each proxy's.
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
{
	echo "# Reverse proxies, one core each"
	echo
	echo "\`$cmdline\`, $(date -u +%F), $(nproc) cores"
	echo "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')). Each proxy pinned to core 0;"
	echo "the load (wrk -t1 -c$conns, or wsload -c$conns) and the brisk upstream share core 1. The machine is shared with"
	echo "other engineers' jobs: the proxies take turns within each round (rotating order),"
	echo "and the figures are medians over the $rounds rounds. req/CPU-s is requests served per"
	echo "second of the proxy's own CPU time (utime+stime), the figure that does not depend"
	echo "on how much of core 0 the proxy got; user and kernel are its CPU time per request,"
	echo "in microseconds. The Go proxies run with GOMAXPROCS=$procs (see the script)."
	echo "Modes: plaintext (13 bytes), 64k (a 64 KiB response), pipelined (16 plaintext"
	echo "requests per write; no p99: wrk's percentiles are broken with pipelining), ws"
	echo "(WebSocket echo of 100-byte messages: req/s is messages/s; fasthttp has no upgrade),"
	echo "rate (plaintext at $rate req/s for every proxy, by brisk load -rate; p99 from each"
	echo "request's intended send time)."
	echo
	for body in "${modes[@]}"; do
		echo "## $body"
		echo
		echo "| proxy | req/s | p99 (us) | req/CPU-s | user (us/req) | kernel (us/req) | brisk's req/CPU-s / this |"
		echo "|---|---:|---:|---:|---:|---:|---:|"
		bper=$(awk -v b="$body" '$1 == "brisk" && $2 == b {print $7}' "$data" | median)
		for p in "${proxies[@]}"; do
			[ "$body" != ws ] || [ "$p" != fasthttp ] || continue
			rps=$(awk -v p="$p" -v b="$body" '$1 == p && $2 == b {print $4}' "$data" | median)
			p99=$(awk -v p="$p" -v b="$body" '$1 == p && $2 == b {print $5}' "$data" | median)
			[ "$body" != pipelined ] || p99=-
			per=$(awk -v p="$p" -v b="$body" '$1 == p && $2 == b {print $7}' "$data" | median)
			usr=$(awk -v p="$p" -v b="$body" '$1 == p && $2 == b {print $8}' "$data" | median)
			sys=$(awk -v p="$p" -v b="$body" '$1 == p && $2 == b {print $9}' "$data" | median)
			ratio=$(awk -v a="$bper" -v b="$per" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
			printf '| %s | %.0f | %s | %s | %.1f | %.1f | %s |\n' "$p" "$rps" "$p99" "$per" "$usr" "$sys" "$ratio"
		done
		echo
	done
	echo "Raw runs: bench/results/proxy.data."
	if [ -f "$out/proxy-notes.md" ]; then
		echo
		cat "$out/proxy-notes.md"
	fi
} >"$out/proxy.md"
cat "$out/proxy.md"
