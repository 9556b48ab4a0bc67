// What the sidecar relies on in http-proxy and Node beyond their documented APIs still holds. An
// upgrade that changes any of it fails here, naming what changed, before it changes what goes on the wire.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import { parseUpstreamUrl } from '../../src/config/parsers.js';
import { connectionOf, responseOn, withDefinedRequestOptions } from '../../src/http/node-internals.js';
import { selfSignedCertificate } from '../helpers/tls-server.js';
import { createSignedProxy } from '../../src/proxy/http-proxy-adapter.js';
import { send } from '../helpers/http.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: readonly string[];
}

/** A real server that records each request's head and answers 200. */
async function recordingServer(
  t: ExecutionContext,
  onRequest?: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders });
    onRequest?.(req, res);
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** A front server that sends every request upstream through the adapter, with the given head. */
async function adapterFront(
  t: ExecutionContext,
  upstreamPort: number,
  method: string,
  headers: string[],
  path: string,
): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  const upstream = parseUpstreamUrl(`http://127.0.0.1:${upstreamPort}`);
  if (!upstream.ok) throw new Error('bad upstream');
  const proxy = createSignedProxy(upstream.value, agent);
  const front = http.createServer((req, res) => {
    proxy.web(
      req,
      res,
      {
        method,
        headers,
        write: (upstreamRequest) => {
          upstreamRequest.path = path;
          upstreamRequest.on('response', (response: IncomingMessage) => {
            res.writeHead(response.statusCode ?? 502);
            response.pipe(res);
          });
          upstreamRequest.end();
        },
      },
      () => res.writeHead(502).end(),
    );
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    proxy.close();
    agent.destroy();
    return new Promise<void>((resolve) => front.close(() => resolve()));
  });
  return (front.address() as AddressInfo).port;
}

test('http-proxy: the header lines go out in the order given, and a bodiless DELETE gets no length', async (t) => {
  const upstream = await recordingServer(t);
  const lines = ['Host', `127.0.0.1:${upstream.port}`, 'X-B', '2', 'X-A', '1', 'Authorization', 'signed'];
  const port = await adapterFront(t, upstream.port, 'DELETE', lines, '//a//b?q=%2F');
  const answer = await send(`http://127.0.0.1:${port}/ignored`, { method: 'GET' });
  t.is(answer.status, 200);
  const [seen] = upstream.seen;
  t.is(seen?.method, 'DELETE');
  t.is(seen?.url, '//a//b?q=%2F');
  // Node adds Connection for the keep-alive agent; nothing else, and nothing reordered.
  t.deepEqual(
    seen?.rawHeaders.filter((_, i, all) => all[i - (i % 2)] !== 'Connection'),
    lines,
  );
});

test('Node: the agent hook still receives every request, and the wrapped agent still connects', async (t) => {
  t.is(typeof http.Agent.prototype.addRequest, 'function');
  const upstream = await recordingServer(t);
  const agent = new http.Agent({ keepAlive: true });
  t.teardown(() => agent.destroy());
  const received: Array<Record<string, unknown>> = [];
  const original = agent.addRequest.bind(agent);
  agent.addRequest = (request, options) => {
    received.push(options);
    original(request, options);
  };
  withDefinedRequestOptions(agent);
  const answer = await send(`http://127.0.0.1:${upstream.port}/x`, { agent });
  t.is(answer.status, 200);
  t.is(received.length, 1);
  t.false(Object.values(received[0] ?? {}).includes(undefined));
  t.like(received[0], { host: '127.0.0.1', port: String(upstream.port) });
});

test('Node: a server socket links to the response being written on it', async (t) => {
  let linked: boolean | null = null;
  const upstream = await recordingServer(t, (req, res) => {
    linked = responseOn(req.socket) === res;
  });
  await send(`http://127.0.0.1:${upstream.port}/`);
  t.true(linked);
});

test("Node: a TLS server's request socket links to the connection its 'connection' event gave", async (t) => {
  const { keyFile, certFile } = await selfSignedCertificate('localhost');
  let accepted: Socket | null = null;
  let linked: boolean | null = null;
  const server = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
    linked = connectionOf(req.socket) === accepted && req.socket !== accepted;
    res.end('ok');
  });
  server.on('connection', (socket: Socket) => (accepted = socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) =>
    https
      .get({ port, host: '127.0.0.1', servername: 'localhost', ca: readFileSync(certFile), agent: false }, (res) =>
        res.resume().on('end', resolve),
      )
      .on('error', reject),
  );
  t.true(linked);
});

test('Node: a plain server socket is its own connection', async (t) => {
  let same: boolean | null = null;
  const upstream = await recordingServer(t, (req) => {
    same = connectionOf(req.socket) === req.socket;
  });
  await send(`http://127.0.0.1:${upstream.port}/`);
  t.true(same);
});
