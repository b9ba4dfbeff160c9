#!/usr/bin/env bash
# router_e2e.sh: what the Router costs end to end. wrk loads brisk on
# GET /users/42/posts/7 answered by the plaintext handler, once through a
# Router whose route is "GET /users/{id}/posts/{post}" and once without a
# Router (bench/routerserver). Both servers run pinned to core 0, wrk to
# core 1 (one thread); the two alternate for ROUNDS rounds, the first to
# go alternating too. It prints each run, the median req/s and server CPU
# time per request (utime+stime from /proc/PID/stat, less sensitive to the
# load of a shared machine) of each server, and their ratios (target:
# router >= 0.95 x no router in req/s).
#
# Usage: bench/router_e2e.sh [-d SECONDS] [-r ROUNDS] [-c CONNS]
#   defaults: -d 2 -r 5 -c 50 (about 25 s in all)
set -euo pipefail

secs=2 rounds=5 conns=50
while getopts "d:r:c:" o; do
	case $o in
	d) secs=$OPTARG ;; r) rounds=$OPTARG ;; c) conns=$OPTARG ;;
	*) sed -n '2,13p' "$0"; exit 2 ;;
	esac
done

. "$(dirname "$0")/lib.sh"

(cd "$bench" && go build -o "$tmp/server" ./routerserver)
base=$((20000 + RANDOM % 20000))
target=/users/42/posts/7
i=0
for s in norouter router; do
	port[$s]=$((base + i)) i=$((i + 1))
	flags=(-addr "127.0.0.1:${port[$s]}")
	[ "$s" = router ] && flags+=(-router)
	"${srvpin[@]}" "$tmp/server" "${flags[@]}" >"$tmp/$s.log" 2>&1 &
	pid[$s]=$!
done
for s in norouter router; do
	url=http://127.0.0.1:${port[$s]}$target
	for _ in $(seq 50); do curl -fs "$url" >/dev/null 2>&1 && break || sleep 0.1; done
	[ "$(curl -fs "$url")" = "Hello, World!" ] || { echo "$s does not answer $target" >&2; cat "$tmp/$s.log" >&2; exit 1; }
done

hz=$(getconf CLK_TCK)

for round in $(seq "$rounds"); do
	order=(norouter router)
	[ $((round % 2)) = 0 ] && order=(router norouter)
	for s in "${order[@]}"; do
		before=$(cputicks "${pid[$s]}")
		res=$(timeout $((secs + 30)) "${loadpin[@]}" wrk -t1 -c"$conns" -d"${secs}s" --timeout 10s "http://127.0.0.1:${port[$s]}$target")
		grep -q 'Non-2xx' <<<"$res" && { echo "$s: non-2xx responses" >&2; exit 1; }
		after=$(cputicks "${pid[$s]}")
		rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$res")
		reqs=$(awk '/requests in/ {print $1}' <<<"$res")
		cpu=$(echo "($after - $before) * 1000000 / $hz / $reqs" | bc -l)
		printf "round %d %-8s %10.0f req/s %6.2f CPU us/request\n" "$round" "$s" "$rps" "$cpu"
		echo "$s $rps $cpu" >>"$tmp/data"
	done
done

# median SERVER COLUMN: the median of a column of the server's runs.
median() { awk -v s="$1" -v c="$2" '$1 == s {print $c}' "$tmp/data" | sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
a=$(median norouter 2) b=$(median router 2) ca=$(median norouter 3) cb=$(median router 3)
printf "median req/s: no router %.0f, router %.0f, ratio %.3f\n" "$a" "$b" "$(echo "$b / $a" | bc -l)"
printf "median CPU us/request: no router %.2f, router %.2f, ratio %.3f\n" "$ca" "$cb" "$(echo "$cb / $ca" | bc -l)"
printf "(wrk -t1 -c %d, %d rounds x %d s per server)\n" "$conns" "$rounds" "$secs"
