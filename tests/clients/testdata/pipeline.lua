-- wrk script: with an argument N (after --), each write carries N
-- pipelined GET requests for the URL's path; without one, one request.
-- Every response whose status is not 200 is counted per thread, and done()
-- prints "non200 <count>" so that the test can assert it is zero (wrk's
-- own "Non-2xx or 3xx" line ignores 1xx and 3xx).

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local depth = tonumber(args[1]) or 1
  local batch = {}
  for i = 1, depth do
    batch[i] = wrk.format("GET")
  end
  payload = table.concat(batch)
  non200 = 0
end

function request()
  return payload
end

function response(status, headers, body)
  if status ~= 200 then
    non200 = non200 + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("non200")
  end
  io.write(string.format("non200 %d\n", total))
end
