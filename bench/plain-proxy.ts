// The benchmark's Node floor: a plain node:http pass-through proxy with the sidecar's keep-alive agent
// options (src/proxy/upstream-agent-options.ts), its limits on callers (src/server/caller-limits.ts:
// idle connections kept 65 s, not Node's 5 s, whose close races a caller reusing the connection) and
// its hop-by-hop filter, used both ways (responseHeadersForCaller), and nothing else: no signing, hono,
// http-proxy, metrics or logs. Its row shows what Node's HTTP stack alone costs on the same machine in
// the same run, so that the sidecar's cost can be read against it as well as against nginx.
// Usage: node dist/bench/plain-proxy.js LISTEN_PORT UPSTREAM_PORT
import http from 'node:http';
import { DEFAULT_LIMITS } from '../src/config/limits-config.js';
import { responseHeadersForCaller } from '../src/proxy/outgoing-headers.js';
import { upstreamAgentOptions } from '../src/proxy/upstream-agent-options.js';
import { callerLimitOptions } from '../src/server/caller-limits.js';

const listenPort = Number(process.argv[2]);
const upstreamPort = Number(process.argv[3]);
const agent = new http.Agent(upstreamAgentOptions());

const server = http.createServer(callerLimitOptions(DEFAULT_LIMITS), (incoming, outgoing) => {
  const request = http.request(
    {
      host: '127.0.0.1',
      port: upstreamPort,
      method: incoming.method,
      path: incoming.url,
      headers: responseHeadersForCaller(incoming.rawHeaders, 200),
      agent,
    },
    (response) => {
      outgoing.writeHead(
        response.statusCode ?? 502,
        responseHeadersForCaller(response.rawHeaders, response.statusCode ?? 502),
      );
      response.pipe(outgoing);
    },
  );
  request.on('error', () => {
    if (outgoing.headersSent) return void outgoing.destroy();
    outgoing.writeHead(502).end();
  });
  incoming.pipe(request);
});
server.listen(listenPort, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
