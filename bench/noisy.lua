-- noisy.lua: a wrk script sending one malformed request in ten (a
-- Content-Length that is not a number, so the framing is in doubt: the
-- server answers 400 and closes) among valid GETs. wrk counts the 400s
-- as "Non-2xx or 3xx responses"; valid req/s excludes them.
local n = 0
local bad = "GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1x\r\n\r\n"
request = function()
	n = n + 1
	if n % 10 == 0 then return bad end
	return wrk.format()
end
