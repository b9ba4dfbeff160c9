-- close.lua: a wrk script sending "Connection: close" with every request,
-- for the close profile of bench/profiles.sh (a new connection a request).
-- wrk's -H drops a field written without a space after the colon, and a
-- space cannot pass through profiles.sh's option lists.
wrk.headers["Connection"] = "close"
