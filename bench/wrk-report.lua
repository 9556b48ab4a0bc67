-- wrk script: optional POST with a 1 KiB JSON body (argument "post"), and a JSON report on stdout.
local body_file = nil

function init(args)
  if args[1] == "post" then
    wrk.method = "POST"
    wrk.body = args[2]
    wrk.headers["Content-Type"] = "application/json"
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"socketErrors":%d,"timeouts":%d,"non2xx":%d,"p50Us":%d,"p99Us":%d,"p999Us":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
end
