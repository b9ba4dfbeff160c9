#!/usr/bin/env bash
# parksyscalls.sh: system calls per request of the brisk plaintext server
# with parking off (Server.NoParkIdle), on (ParkIdleAfter 2 s, the default) and now
# (ParkIdleAfter < 0: parked at once), on busy keep-alive connections.
#
# For each mode and connection count it starts bench/servers/brisk under
# strace -c -f (counting, not timing: strace slows the server, so req/s is
# meaningless here), loads it with wrk for SECONDS, stops it and divides
# each system call's count by the requests wrk completed. Lines are
# "mode conns call calls/request" for calls made at least 0.02 times per
# request, then the total.
#
# Usage: bench/parksyscalls.sh [SECONDS] [CONNS...]   defaults: 3, 1 50
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
secs=${1:-3}
shift || true
[ $# -eq 0 ] && set -- 1 50
for tool in strace wrk; do
	command -v $tool >/dev/null || { echo "needs $tool (apt-get install -y $tool)" >&2; exit 1; }
done
tmp=$(mktemp -d)
spid=
trap '[ -n "$spid" ] && kill $spid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$bench" && go build -o "$tmp/brisk" ./servers/brisk)

for conns in "$@"; do
	for mode in off on now; do
		port=$((20000 + RANDOM % 12000))
		flags=()
		[ $mode = off ] && flags=(-park=false)
		[ $mode = now ] && flags=(-park-after=-1s)
		strace -c -f -o "$tmp/strace.txt" "$tmp/brisk" -addr "127.0.0.1:$port" "${flags[@]}" &
		spid=$!
		for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break || sleep 0.1; done
		reqs=$(timeout $((secs + 20)) wrk -t1 -c"$conns" -d"${secs}s" "http://127.0.0.1:$port/" | awk '/requests in/ {print $1}')
		kill "$(pgrep -P $spid)"; wait $spid 2>/dev/null || true # strace reports when the server exits
		spid=
		awk -v m=$mode -v c=$conns -v r="$reqs" '
			$1 ~ /^[0-9.]+$/ && NF >= 5 { calls = $4; name = $NF; if (name == "total") next; if (calls / r >= 0.02) printf "%-4s %4d %-16s %6.2f\n", m, c, name, calls / r; tot += calls }
			END { printf "%-4s %4d %-16s %6.2f   (%d requests)\n", m, c, "total", tot / r, r }' "$tmp/strace.txt"
	done
done
