-- upload.lua: a wrk script POSTing a 20 MB body (20,000,000 bytes) per
-- request, for the upload profile of bench/profiles.sh.
wrk.method = "POST"
wrk.body = string.rep("a", 20000000)
wrk.headers["Content-Type"] = "application/octet-stream"
