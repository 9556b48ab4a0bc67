// The benchmark's floor for the requested stack: hono's Node adapter receives, http-proxy forwards,
// with the sidecar's keep-alive agent options, its limits on callers and its hop-by-hop filter, and
// nothing else: no signing, request log, metrics, key store or connection bound. Both libraries are
// used as the sidecar uses them: one catch-all route that answers RESPONSE_ALREADY_SENT, and http-proxy
// handing the upstream's answer back (selfHandleResponse) to be written to the caller. Its row shows what
// the two libraries alone cost over `plain-node` (bench/plain-proxy.ts) on the same Node in the same
// run: the part of the sidecar's cost that no change to the sidecar's own code can remove.
// Usage: node dist/bench/stack-proxy.js LISTEN_PORT UPSTREAM_PORT
import http from 'node:http';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import httpProxy from 'http-proxy';
import { DEFAULT_LIMITS } from '../src/config/limits-config.js';
import { responseHeadersForCaller } from '../src/proxy/outgoing-headers.js';
import { upstreamAgentOptions } from '../src/proxy/upstream-agent-options.js';
import { callerLimitOptions } from '../src/server/caller-limits.js';

const listenPort = Number(process.argv[2]);
const upstreamPort = Number(process.argv[3]);
const proxy = httpProxy.createProxyServer({
  target: `http://127.0.0.1:${upstreamPort}`,
  agent: new http.Agent(upstreamAgentOptions()),
  selfHandleResponse: true,
});
proxy.on('proxyRes', (response, _incoming, outgoing) => {
  const status = response.statusCode ?? 502;
  outgoing.writeHead(status, responseHeadersForCaller(response.rawHeaders, status));
  response.pipe(outgoing);
});

const app = new Hono<{ Bindings: HttpBindings }>();
app.all('*', (c) => {
  const { incoming, outgoing } = c.env;
  // The caller's hop-by-hop headers stay on this hop, as the sidecar and plain-node keep them: http-proxy
  // copies `incoming.headers` upstream as they are (a caller's `Connection: close` included).
  incoming.headers = headerObject(responseHeadersForCaller(incoming.rawHeaders, 200));
  proxy.web(incoming, outgoing, {}, () => {
    if (outgoing.headersSent) return void outgoing.destroy();
    outgoing.writeHead(502).end();
  });
  return RESPONSE_ALREADY_SENT;
});

/** Header lines as the object http-proxy copies, a repeated name's values in one list. */
function headerObject(lines: readonly string[]): http.IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i]!.toLowerCase();
    const value = lines[i + 1]!;
    const seen = headers[name];
    headers[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return headers;
}

const listener = getRequestListener(app.fetch, { autoCleanupIncoming: false, hostname: 'localhost' });
http
  .createServer(callerLimitOptions(DEFAULT_LIMITS), (incoming, outgoing) => void listener(incoming, outgoing))
  .listen(listenPort, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
