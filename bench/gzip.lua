-- gzip.lua: a wrk script asking for gzip (Accept-Encoding: gzip), for
-- the gzip64k profile of bench/profiles.sh.
wrk.headers["Accept-Encoding"] = "gzip"
