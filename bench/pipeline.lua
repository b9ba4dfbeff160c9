-- pipeline.lua: a wrk script that sends DEPTH requests per write
-- (HTTP/1.1 pipelining). Usage: wrk -s bench/pipeline.lua URL -- DEPTH
init = function(args)
	local depth = tonumber(args[1]) or 16
	local r = {}
	for i = 1, depth do r[i] = wrk.format() end
	req = table.concat(r)
end
request = function() return req end
