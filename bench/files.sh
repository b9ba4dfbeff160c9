#!/usr/bin/env bash
# files.sh: end-to-end file-serving benchmark of brisk's files.Server,
# fasthttp.FS and http.FileServer (bench/filesrv).
#
# Serves one directory with each server, pinned to core 0, wrk on core 1,
# and runs one wrk run per server and case:
#   1k    a 1 KiB text file                       (target: brisk req/s >= 1.2x fasthttp)
#   1kp   the same, pipelined 16 deep (bench/pipeline.lua)
#   8k    an 8 KiB text file: a body larger than a 4 KiB write buffer
#   1m    a 1 MiB binary file                      (target: brisk CPU/byte <= 0.8x fasthttp)
#   gzip  a 64 KiB JSON file, Accept-Encoding: gzip, compressed on the fly
#         at level 6 (brisk compress, fasthttp CompressHandlerLevel; no
#         net/http)                                (target: brisk req/s >= 1.0x fasthttp)
# Each body is checked against the file (decoded) with curl first. For
# each run it records req/s, MB/s read by wrk and the server's CPU time
# per request (utime+stime from /proc/PID/stat). Writes
# bench/results/files.md.
#
# Usage: bench/files.sh [-d SECONDS] [-c CONNS] [-r ROUNDS]
#   defaults: -d 5 -c 50 -r 1
set -euo pipefail

secs=5 conns=50 rounds=1
while getopts "d:c:r:" o; do
	case $o in
	d) secs=$OPTARG ;; c) conns=$OPTARG ;; r) rounds=$OPTARG ;;
	*) sed -n '2,21p' "$0"; exit 2 ;;
	esac
done

. "$(dirname "$0")/lib.sh"

# The files: 1, 8 and 64 KiB of JSON records, 1 MiB of random bytes.
root=$tmp/root
mkdir -p "$root"
for ((i = 0; ; i++)); do
	printf '{"id":%d,"name":"user %d","email":"user%d@example.com","active":%s,"score":%d},' \
		"$i" "$i" "$i" "$([ $((i % 3)) = 0 ] && echo true || echo false)" $((i * 37 % 1000))
	[ "$i" -ge 1200 ] && break
done >"$tmp/records"
head -c 1024 "$tmp/records" >"$root/f1k.txt"
head -c 8192 "$tmp/records" >"$root/f8k.txt"
head -c 65536 "$tmp/records" >"$root/f64k.json"
head -c 1048576 /dev/urandom >"$root/f1m.bin"

(cd "$bench" && go build -o "$tmp/filesrv" ./filesrv)
# A base port with the five above it free (other programs may be listening).
for _ in $(seq 20); do
	base=$((20000 + RANDOM % 20000))
	ss -ltnH 2>/dev/null | awk '{print $4}' | grep -qE ":($base|$((base + 1))|$((base + 2))|$((base + 3))|$((base + 4)))\$" || break
done
servers=(brisk fasthttp nethttp brisk-gzip fasthttp-gzip)
for i in "${!servers[@]}"; do
	s=${servers[$i]} args=()
	[[ $s == *-gzip ]] && args=(-gzip)
	port[$s]=$((base + i))
	"${srvpin[@]}" "$tmp/filesrv" -impl "${s%-gzip}" -root "$root" -addr "127.0.0.1:${port[$s]}" "${args[@]}" >"$tmp/$s.log" 2>&1 &
	pid[$s]=$!
done
for s in "${servers[@]}"; do
	for _ in $(seq 50); do
		curl -fs "http://127.0.0.1:${port[$s]}/f1k.txt" >/dev/null 2>&1 && break || sleep 0.1
	done
done

# check SERVER PATH [curl args]: the body, decoded, is the file.
check() {
	local s=$1 p=$2
	shift 2
	curl -fs "$@" "http://127.0.0.1:${port[$s]}$p" -o "$tmp/got" || { echo "$s $p: curl failed" >&2; cat "$tmp/$s.log" >&2; exit 1; }
	cmp -s "$tmp/got" "$root$p" || { echo "$s $p: body differs from the file" >&2; exit 1; }
}
for s in brisk fasthttp nethttp; do check "$s" /f1k.txt; check "$s" /f8k.txt; check "$s" /f1m.bin; done
for s in brisk-gzip fasthttp-gzip; do
	enc=$(curl -fs -o /dev/null -D - -H 'Accept-Encoding: gzip' "http://127.0.0.1:${port[$s]}/f64k.json" | tr -d '\r' | awk -F': ' 'tolower($1)=="content-encoding"{print $2}')
	[ "$enc" = gzip ] || { echo "$s: Content-Encoding \"$enc\", want gzip" >&2; exit 1; }
	check "$s" /f64k.json --compressed
done

hz=$(getconf CLK_TCK)
cat >"$tmp/gzip.lua" <<'LUA'
wrk.headers["Accept-Encoding"] = "gzip"
LUA

# measure CASE SERVER PATH [wrk args]: one run; appends "case server rps MB/s cpu_us_per_req".
measure() {
	local c=$1 s=$2 p=$3 before after res rps reqs mbs
	shift 3
	before=$(cputicks "${pid[$s]}")
	local args=("$@") script=()
	if [ "${args[2]:-}" = -- ]; then # -s FILE -- ARGS: the script's arguments follow the URL
		script=("${args[@]:2}") args=("${args[@]:0:2}")
	fi
	res=$(timeout $((secs + 30)) "${loadpin[@]}" wrk -t1 -c"$conns" -d"${secs}s" --timeout 10s "${args[@]}" "http://127.0.0.1:${port[$s]}$p" "${script[@]}")
	after=$(cputicks "${pid[$s]}")
	rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$res")
	reqs=$(awk '/requests in/ {print $1}' <<<"$res")
	mbs=$(awk '/^Transfer\/sec:/ {v = $2; if (v ~ /GB/) v *= 1024; else if (v ~ /KB/) v /= 1024; print v + 0}' <<<"$res")
	echo "$c ${s%-gzip} $rps $mbs $(echo "($after - $before) * 1000000 / $hz / $reqs" | bc -l)" >>"$tmp/data"
	printf "%-5s %-9s %10.0f req/s %8.1f MB/s\n" "$c" "${s%-gzip}" "$rps" "$mbs" >&2
}
for _ in $(seq "$rounds"); do
	for s in brisk fasthttp nethttp; do measure 1k "$s" /f1k.txt; done
	for s in brisk fasthttp nethttp; do measure 1kp "$s" /f1k.txt -s "$bench/pipeline.lua" -- 16; done
	for s in brisk fasthttp nethttp; do measure 8k "$s" /f8k.txt; done
	for s in brisk fasthttp nethttp; do measure 1m "$s" /f1m.bin; done
	for s in brisk-gzip fasthttp-gzip; do measure gzip "$s" /f64k.json -s "$tmp/gzip.lua"; done
done

mkdir -p "$out"
awk -v conns="$conns" -v secs="$secs" -v rounds="$rounds" -v host="$(uname -srm), $(nproc) cores" \
	-v date="$(date -u +%Y-%m-%d)" '
{ k = $1 " " $2; n[k]++; rps[k] += $3; mbs[k] += $4; cpu[k] += $5 }
END {
	split("1k 1kp 8k 1m gzip", cases, " "); split("brisk fasthttp nethttp", srv, " ")
	title["1k"] = "1 KiB file"; title["1kp"] = "1 KiB file, pipelined 16"; title["8k"] = "8 KiB file"; title["1m"] = "1 MiB file"; title["gzip"] = "64 KiB JSON, gzip on the fly"
	print "# End-to-end file serving\n"
	print "wrk (1 thread, " conns " connections) on core 1, server on core 0; " rounds " round(s) x " secs " s per server and case. " host ", " date ".\n"
	print "| case | server | req/s | ratio to fasthttp | MB/s | CPU µs/request | CPU ratio to fasthttp |"
	print "|---|---|---:|---:|---:|---:|---:|"
	for (ci = 1; ci <= 5; ci++) for (i = 1; i <= 3; i++) {
		k = cases[ci] " " srv[i]; f = cases[ci] " fasthttp"
		if (!(k in n)) continue
		printf "| %s | %s | %.0f | %.2f | %.1f | %.2f | %.2f |\n", title[cases[ci]], srv[i], rps[k] / n[k],
			(rps[k] / n[k]) / (rps[f] / n[f]), mbs[k] / n[k], cpu[k] / n[k], (cpu[k] / n[k]) / (cpu[f] / n[f])
	}
	print "\nTargets for brisk: 1 KiB req/s >= 1.2x fasthttp; 1 MiB CPU per byte (= per request) <= 0.8x; gzip req/s >= 1.0x."
	print "Reproduce: `bench/files.sh -d " secs " -r " rounds "`."
}' "$tmp/data" >"$out/files.md"
cat "$out/files.md"
