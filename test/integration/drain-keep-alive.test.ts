// The drain and kept-alive callers, as every application's HTTP client keeps its connections: an
// answer in flight when the drain starts closes its connection, so the sidecar stops as soon as its
// answers are done instead of waiting out SFD_SHUTDOWN_TIMEOUT_MS on callers' idle connections.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { startTestSidecar, toUpstream } from '../helpers/stack.js';
import { eventually } from '../helpers/time.js';

const DRAIN_MS = 8000;

/** /slow answers after 500 ms; /stream sends its head and a first chunk at once, the rest 700 ms later. */
async function startUpstream(t: ExecutionContext): Promise<{ url: string; slowReceived: () => number }> {
  let slowReceived = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.url?.startsWith('/slow')) slowReceived += 1;
    if (req.url?.startsWith('/stream')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"part":');
      setTimeout(() => res.end('2}'), 700);
    } else {
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"slow":true}'), 500);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, slowReceived: () => slowReceived };
}

interface KeptAliveAnswer {
  readonly connection: string | undefined;
  readonly body: string;
  /** Resolves when the caller's connection closes. */
  readonly closed: Promise<void>;
}

function get(agent: http.Agent, url: string, onHead?: () => void): Promise<KeptAliveAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      onHead?.();
      const closed = new Promise<void>((done) => response.socket.once('close', () => done()));
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ connection: response.headers.connection, body, closed }));
    });
    request.on('error', reject);
  });
}

test('an answer not yet begun when the drain starts says Connection: close, and the drain ends with it', async (t) => {
  const upstream = await startUpstream(t);
  const { sidecar, proxyUrl } = await startTestSidecar(t, { defaultUpstream: toUpstream(upstream.url) });
  const agent = new http.Agent({ keepAlive: true });
  t.teardown(() => agent.destroy());
  t.is((await get(agent, `${proxyUrl}/slow`)).connection, 'keep-alive', 'a kept-alive connection before the drain');
  const inFlight = get(agent, `${proxyUrl}/slow`);
  t.true(await eventually(() => upstream.slowReceived() === 2), 'the request reached the upstream');
  const started = Date.now();
  const drained = sidecar.close(DRAIN_MS);
  const answer = await inFlight;
  t.deepEqual([answer.connection, answer.body], ['close', '{"slow":true}']);
  await drained;
  t.true(
    Date.now() - started < 3000,
    `the drain ended with the answer, not after ${DRAIN_MS} ms (${Date.now() - started} ms)`,
  );
});

test('an answer already begun when the drain starts is sent whole, then its connection is closed', async (t) => {
  const { sidecar, proxyUrl } = await startTestSidecar(t, {
    defaultUpstream: toUpstream((await startUpstream(t)).url),
  });
  const agent = new http.Agent({ keepAlive: true });
  t.teardown(() => agent.destroy());
  let drained: Promise<void> | undefined;
  const started = Date.now();
  const answer = await get(agent, `${proxyUrl}/stream`, () => {
    drained = sidecar.close(DRAIN_MS);
  });
  t.deepEqual([answer.connection, answer.body], ['keep-alive', '{"part":2}']);
  await answer.closed;
  await drained;
  t.true(
    Date.now() - started < 3000,
    `the connection was closed after the answer, not after ${DRAIN_MS} ms (${Date.now() - started} ms)`,
  );
});
