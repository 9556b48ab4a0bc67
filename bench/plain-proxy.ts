// The benchmark's Node floor: a plain node:http pass-through proxy with the same keep-alive agent
// settings as the sidecar's forwarder (src/proxy/forwarder.ts), hop-by-hop headers dropped both ways,
// and nothing else: no signing, hono, http-proxy, metrics or logs. Its row shows what Node's HTTP
// stack alone costs on the same machine in the same run, so that the sidecar's cost can be read
// against it as well as against nginx.
// Usage: node dist/bench/plain-proxy.js LISTEN_PORT UPSTREAM_PORT
import http from 'node:http';

const listenPort = Number(process.argv[2]);
const upstreamPort = Number(process.argv[3]);
const agent = new http.Agent({ keepAlive: true, noDelay: true, maxSockets: 64, maxFreeSockets: 64, scheduling: 'lifo', timeout: 4000 });

/** Hop-by-hop headers (RFC 9110 §7.6.1) are the connection's, not the message's: a proxy drops them. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** Raw header pairs without the hop-by-hop ones (unlike the sidecar, it ignores names listed in Connection). */
function endToEnd(rawHeaders: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(rawHeaders[i]!.toLowerCase())) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}

const server = http.createServer((incoming, outgoing) => {
  const request = http.request(
    { host: '127.0.0.1', port: upstreamPort, method: incoming.method, path: incoming.url, headers: endToEnd(incoming.rawHeaders), agent },
    (response) => {
      outgoing.writeHead(response.statusCode ?? 502, endToEnd(response.rawHeaders));
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
