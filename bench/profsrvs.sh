# profsrvs.sh: the servers and loads of the workload profiles, shared by
# profiles.sh and syscalls.sh; each sources lib.sh, then this file, after
# setting secs (seconds a load run) and profiles (the profiles it runs).
# It builds bench/profsrv, bench/hertzsrv, bench/idleconns and the floor
# (bench/floor/floor.c), starts every server the profiles need (HTTPS
# ones, NAME-tls, only for tls profiles), checks that each answers every
# route right, and defines:
#   servers PROFILE   the servers of a profile (see profiles.sh)
#   load PROFILE PROC runs one load; prints "n p99_ms bad rps"
#   rchar PID         the bytes PID has read, sockets included
#   updur             the duration of an upload run, in seconds
# Sets gosrv, all, procs, port[PROC], pid[PROC], root, hz, noisysrv (the
# servers answering noisy.lua's malformed request 400) and notes.
command -v h2load >/dev/null || (apt-get update -qq && apt-get install -y -qq nghttp2-client) >/dev/null
gosrv=(brisk fasthttp nethttp nbio hertz)
all=("${gosrv[@]}" floor)
# servers PROFILE: the servers of a profile.
servers() {
	case $1 in
	base | base4k | pipe16 | close | idle) echo "${all[*]}" ;;
	tls1) echo "brisk fasthttp nethttp" ;;
	tls2) echo "brisk nethttp" ;;
	gzip64k) echo "brisk fasthttp" ;;
	noisy) echo "${noisysrv[*]}" ;;
	*) echo "${gosrv[*]}" ;;
	esac
}

root=$tmp/root
mkdir -p "$root"
head -c 1024 /dev/urandom >"$root/f1k"
head -c 65536 /dev/urandom >"$root/f64k"
head -c 1048576 /dev/urandom >"$root/f1m"
awk 'BEGIN { printf "["; for (i = 0; i < 800; i++) printf "%s{\"id\":%d,\"name\":\"user %d\",\"active\":true}", i ? "," : "", i, i; print "]" }' |
	head -c 65536 >"$root/g64k.json"
(cd "$bench" && go build -o "$tmp/profsrv" ./profsrv && go build -o "$tmp/idleconns" ./idleconns)
(cd "$bench/hertzsrv" && GOWORK=off go build -o "$tmp/hertzsrv" .)
cc -O2 -o "$tmp/floor" "$bench/floor/floor.c"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
	-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	-keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null
if ! ulimit -n 20000 2>/dev/null; then
	echo "open file limit $(ulimit -n): skipping base4k and idle" >&2
	profiles=${profiles/base4k/} profiles=${profiles/idle/}
fi

# Processes: NAME for plaintext, NAME-tls for HTTPS.
procs=("${all[@]}")
[[ " $profiles " == *" tls"* ]] && procs+=(brisk-tls fasthttp-tls nethttp-tls)
for _ in $(seq 20); do
	base=$((20000 + RANDOM % 20000))
	busy=0
	for i in "${!procs[@]}"; do ss -ltnH "sport = :$((base + i))" | grep -q . && busy=1; done
	((busy)) || break
done
for i in "${!procs[@]}"; do
	s=${procs[$i]} a=127.0.0.1:$((base + i))
	port[$s]=$((base + i))
	case $s in
	floor) cmd=("$tmp/floor" "${port[$s]}" "Hello, World!") ;;
	hertz) cmd=("$tmp/hertzsrv" -root "$root" -addr "$a") ;;
	*-tls) cmd=("$tmp/profsrv" -impl "${s%-tls}" -root "$root" -addr "$a" -cert "$tmp/cert.pem" -key "$tmp/key.pem") ;;
	*) cmd=("$tmp/profsrv" -impl "$s" -root "$root" -addr "$a") ;;
	esac
	"${srvpin[@]}" "${cmd[@]}" >"$tmp/$s.log" 2>&1 &
	pid[$s]=$!
done
noisysrv=() notes=()
for s in "${procs[@]}"; do
	scheme=http
	[[ $s == *-tls ]] && scheme=https
	for _ in $(seq 50); do curl -kfs "$scheme://127.0.0.1:${port[$s]}/" >/dev/null 2>&1 && break || sleep 0.1; done
	[[ $s == floor || $s == *-tls ]] && continue
	for f in f1k f64k f1m; do
		curl -fs "http://127.0.0.1:${port[$s]}/f/$f" -o "$tmp/got" && cmp -s "$tmp/got" "$root/$f" ||
			{ echo "$s /f/$f: wrong body" >&2; cat "$tmp/$s.log" >&2; exit 1; }
	done
	if [[ $s == brisk || $s == fasthttp ]]; then
		enc=$(curl -fs -o /dev/null -D - -H 'Accept-Encoding: gzip' "http://127.0.0.1:${port[$s]}/gz/g64k.json" | tr -d '\r' | awk -F': ' 'tolower($1) == "content-encoding" {print $2}')
		[ "$enc" = gzip ] && curl -fs --compressed "http://127.0.0.1:${port[$s]}/gz/g64k.json" | cmp -s - "$root/g64k.json" ||
			{ echo "$s /gz/g64k.json: not gzip ($enc) or wrong body" >&2; exit 1; }
	fi
	st=$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$root/f1m" "http://127.0.0.1:${port[$s]}/upload")
	[ "$st" = 204 ] || { echo "$s /upload: status $st, want 204" >&2; exit 1; }
	# The malformed request of noisy.lua must be answered 400.
	st=$(printf 'GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1x\r\n\r\n' |
		timeout 3 curl -s --max-time 2 "telnet://127.0.0.1:${port[$s]}" 2>/dev/null | head -1 | tr -d '\r' || true)
	if [[ $st == "HTTP/1.1 400"* ]]; then
		noisysrv+=("$s")
	else
		notes+=("noisy: $s answered the malformed request \"$st\", not 400: left out.")
	fi
done
for s in brisk-tls nethttp-tls; do
	[ -n "${port[$s]:-}" ] || continue
	v=$(curl -ks --http2 -o /dev/null -w '%{http_version}' "https://127.0.0.1:${port[$s]}/")
	[ "$v" = 2 ] || { echo "$s: HTTP/2 not negotiated (got $v)" >&2; exit 1; }
done

hz=$(getconf CLK_TCK)
# args PROFILE: wrk's options, the path and the script's arguments of a
# profile, separated by "|".
args() {
	case $1 in
	base | idle) echo "-c50|/|" ;; base4k) echo "-c4096|/|" ;;
	pipe16) echo "-c50 -s $bench/pipeline.lua|/|16" ;;
	close) echo "-c50 -s $bench/close.lua|/|" ;;
	json) echo "-c50|/json|" ;;
	upload) echo "-c64 -s $bench/upload.lua|/upload|" ;;
	s1k) echo "-c50|/f/f1k|" ;; s64k) echo "-c50|/f/f64k|" ;; s1m) echo "-c10|/f/f1m|" ;;
	gzip64k) echo "-c50 -s $bench/gzip.lua|/gz/g64k.json|" ;;
	noisy) echo "-c50 -s $bench/noisy.lua|/|" ;;
	esac
}
# rchar PID: the bytes PID has read (/proc/PID/io), sockets included.
rchar() { awk '/^rchar/ {print $2}' "/proc/$1/io"; }
# updur: the duration of an upload run, in seconds: 64 bodies of 20 MB
# take seconds to arrive.
updur() { echo $((secs < 6 ? 6 : secs)); }
# load PROFILE PROC: runs the load of one measurement; prints "n p99_ms
# bad rps" (bad: non-2xx responses).
load() {
	local p=$1 s=$2 d=$secs res opts path post pre
	if [[ $p == tls* ]]; then
		local h=(-c 50 -m 10)
		[ "$p" = tls1 ] && h=(--h1 -c 50)
		res=$(timeout $((d + 60)) "${loadpin[@]}" h2load "${h[@]}" -D "$d" --log-file="$tmp/h2log" "https://127.0.0.1:${port[$s]}/" 2>&1)
		local n rps p99
		n=$(awk '/^requests:/ {print $8}' <<<"$res")
		rps=$(awk '/^finished in/ {print $4}' <<<"$res")
		p99=$(awk '$2 == 200 {print $3}' "$tmp/h2log" | sort -n | awk '{a[NR] = $1} END {print NR ? a[int(NR * 0.99)] / 1000 : 0}')
		echo "${n:-0} $p99 0 ${rps:-0}"
		return
	fi
	IFS='|' read -r opts path post <<<"$(args "$p")"
	read -ra pre <<<"$opts"
	read -ra post <<<"$post"
	((${#post[@]})) && post=(-- "${post[@]}")
	[ "$p" = base4k ] && d=$((secs < 10 ? 10 : secs)) # 4,096 connects take seconds
	[ "$p" = upload ] && d=$(updur)
	res=$(timeout $((d + 60)) "${loadpin[@]}" wrk -t1 -d"${d}s" --timeout 10s --latency "${pre[@]}" "http://127.0.0.1:${port[$s]}$path" "${post[@]}")
	awk '/requests in/ {n = $1; t = $4; sub(/s,?$/, "", t)}
		/Non-2xx or 3xx responses:/ {bad = $NF}
		$1 == "99%" {v = $2; if (v ~ /us$/) v /= 1000; else if (v ~ /ms$/) v += 0; else if (v ~ /s$/) v *= 1000; p99 = v + 0}
		END {print n + 0, p99 + 0, bad + 0, t ? (n - bad) / t : 0}' <<<"$res"
}
