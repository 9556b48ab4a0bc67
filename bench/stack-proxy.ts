// The benchmark's floor for the requested stack: hono's Node adapter receives, http-proxy forwards, with the
// sidecar's keep-alive agent options, its limits on callers and its hop-by-hop filter, and nothing else: no signing,
// request log, metrics, key store or connection bound. Both libraries are used as the sidecar uses them: one
// catch-all route that answers RESPONSE_ALREADY_SENT, and http-proxy through the sidecar's own adapter
// (src/proxy/http-proxy-adapter.ts), so the floor gets its options (a target given as parts, never a URL string that
// http-proxy would parse for every request), the path set on the upstream request, and the answer taken from it and
// written to the caller; its agent gets only the connection options that are defined, as the sidecar's does. Its row
// shows what the two libraries alone cost over `plain-node` (bench/plain-proxy.ts) on the same Node in the same run:
// the part of the sidecar's cost that no change to the sidecar's own code can remove.
// With ADMIN_PORT, a second listener on the same adapter answers the kubelet's probes and a scrape as the
// sidecar's admin listener does (a small JSON or text body, nothing computed), for the bench's idle row.
// Usage: node dist/bench/stack-proxy.js LISTEN_PORT UPSTREAM_PORT [ADMIN_PORT]
import http, { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { DEFAULT_LIMITS } from '../src/config/limits-config.js';
import { parseUpstreamUrl } from '../src/config/parsers.js';
import { withDefinedRequestOptions } from '../src/http/node-internals.js';
import { createSignedProxy } from '../src/proxy/http-proxy-adapter.js';
import { responseHeadersForCaller } from '../src/proxy/outgoing-headers.js';
import { upstreamAgentOptions } from '../src/proxy/upstream-agent-options.js';
import { callerLimitOptions } from '../src/server/caller-limits.js';

const listenPort = Number(process.argv[2]);
const upstreamPort = Number(process.argv[3]);
const upstream = parseUpstreamUrl(`http://127.0.0.1:${upstreamPort}`);
if (!upstream.ok) throw new Error(`not an upstream port: ${process.argv[3]}`);
const agent = withDefinedRequestOptions(new http.Agent(upstreamAgentOptions()));
const proxy = createSignedProxy(upstream.value, agent);

/** Sends the caller's request as it came (its hop-by-hop headers left on this hop) and relays the answer. */
function forward(incoming: IncomingMessage, outgoing: ServerResponse): void {
  const write = (upstreamRequest: ClientRequest): void => {
    upstreamRequest.path = incoming.url ?? '/';
    upstreamRequest.once('response', (response) => {
      const status = response.statusCode ?? 502;
      outgoing.writeHead(status, responseHeadersForCaller(response.rawHeaders, status));
      response.pipe(outgoing);
    });
    incoming.pipe(upstreamRequest);
  };
  const headers = responseHeadersForCaller(incoming.rawHeaders, 200);
  proxy.web(incoming, outgoing, { method: incoming.method ?? 'GET', headers, write }, () => {
    if (outgoing.headersSent) return void outgoing.destroy();
    outgoing.writeHead(502).end();
  });
}

const app = new Hono<{ Bindings: HttpBindings }>();
app.all('*', (c) => {
  forward(c.env.incoming, c.env.outgoing);
  return RESPONSE_ALREADY_SENT;
});

const listener = getRequestListener(app.fetch, { autoCleanupIncoming: false, hostname: 'localhost' });
http
  .createServer(callerLimitOptions(DEFAULT_LIMITS), (incoming, outgoing) => void listener(incoming, outgoing))
  .listen(listenPort, '127.0.0.1');
if (process.argv[4] !== undefined) {
  const admin = new Hono();
  admin.get('/healthz', (c) => c.json({ status: 'ok' }));
  admin.get('/readyz', (c) => c.json({ status: 'ready' }));
  admin.get('/metrics', (c) => c.text('# TYPE stack_up gauge\nstack_up 1\n'));
  const adminListener = getRequestListener(admin.fetch, { hostname: 'localhost' });
  http
    .createServer(callerLimitOptions(DEFAULT_LIMITS), (incoming, outgoing) => void adminListener(incoming, outgoing))
    .listen(Number(process.argv[4]), '127.0.0.1');
}
process.on('SIGTERM', () => process.exit(0));
