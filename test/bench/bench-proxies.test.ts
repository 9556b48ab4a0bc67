// The benchmark's own servers, run as `npm run bench` runs them (built output, child processes, real
// ports): the upstream answers its customer JSON (late when asked to), and each floor (plain-node, and
// stack: hono's adapter with http-proxy) passes requests and answers through unchanged on reused
// upstream connections. CI runs only the quick bench, which leaves the floors' rows out, so this is
// where a broken floor would show.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { freePort, waitForPort } from '../../bench/net-utils.js';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';
import { send } from '../helpers/http.js';

const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));

async function startBenchServer(t: ExecutionContext, script: string, args: number[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [`${BENCH_DIR}${script}`, ...args.map(String)], { stdio: 'ignore' });
  t.teardown(() => {
    child.kill('SIGKILL');
  });
  await waitForPort(args[0]!);
  return child;
}

/** The bench's floors: each one's name in the bench's rows and its script. */
const FLOORS = [
  { row: 'plain-node', script: 'plain-proxy.js' },
  { row: 'stack', script: 'stack-proxy.js' },
] as const;

/** The bench upstream and a floor in front of it, as the bench starts them. */
async function startFloorWithUpstream(
  t: ExecutionContext,
  script: string,
): Promise<{ upstream: ChildProcess; upstreamPort: number; proxyPort: number }> {
  const upstreamPort = await freePort();
  const upstream = await startBenchServer(t, 'bench-upstream.js', [upstreamPort]);
  const proxyPort = await freePort();
  await startBenchServer(t, script, [proxyPort, upstreamPort]);
  return { upstream, upstreamPort, proxyPort };
}

async function upstreamConnections(port: number): Promise<number> {
  return (await send(`http://127.0.0.1:${port}/__stats`)).json<{ connections: number }>().connections;
}

for (const { row, script } of FLOORS) {
  const passesThrough = `the ${row} floor passes GET and POST answers through unchanged`;
  test(`${passesThrough}, on one reused upstream connection`, async (t) => {
    const { upstreamPort, proxyPort } = await startFloorWithUpstream(t, script);

    const direct = await send(`http://127.0.0.1:${upstreamPort}/v1.1/customer/12345`);
    t.is(direct.status, 200);
    t.is(direct.json().id, 12345);
    const before = await upstreamConnections(upstreamPort);

    const get = await send(`http://127.0.0.1:${proxyPort}/v1.1/customer/12345`);
    t.is(get.status, 200);
    t.deepEqual(get.body, direct.body);
    t.regex(String(get.headers['x-sfd-trace-id']), /^[0-9a-f]{32}$/);
    const post = await send(`http://127.0.0.1:${proxyPort}/cdn/v1.0/services/1/rateLimit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ timeWindow: 30, requestLimit: 50, note: 'x'.repeat(964) }),
    });
    t.is(post.status, 200);
    t.deepEqual(post.body, direct.body);
    t.is(
      (await upstreamConnections(upstreamPort)) - before - 1,
      1,
      'both proxied requests used one upstream connection (the stats request opened its own)',
    );
  });

  test(`the ${row} floor keeps a caller's idle connection as long as the sidecar does, not Node's 5 s`, async (t) => {
    // Node closes an idle connection a second after its keep-alive timeout; a caller that reuses it at
    // that moment loses the request (ECONNRESET). The sidecar keeps them 65 s, and so must its floor.
    const { proxyPort } = await startFloorWithUpstream(t, script);
    const keepAlive = new http.Agent({ keepAlive: true });
    t.teardown(() => keepAlive.destroy());
    const answer = await send(`http://127.0.0.1:${proxyPort}/v1.1/customer/12345`, { agent: keepAlive });
    t.is(answer.status, 200);
    t.is(answer.headers['keep-alive'], `timeout=${DEFAULT_LIMITS.clientKeepAliveTimeoutMs / 1000}`);
  });
}

test('the bench upstream answers a request asking for delayMs=N no sooner than N ms after it', async (t) => {
  const upstreamPort = await freePort();
  await startBenchServer(t, 'bench-upstream.js', [upstreamPort]);
  const startedAt = performance.now();
  const slow = await send(`http://127.0.0.1:${upstreamPort}/v1.1/customer/12345?delayMs=150`);
  t.true(performance.now() - startedAt >= 150);
  t.is(slow.status, 200);
  t.is(slow.json().id, 12345);
});

test(
  'the bench upstream reports the most connections open at once that carried requests since the last read, ' +
    'leaving idle ones out',
  async (t) => {
    const upstreamPort = await freePort();
    await startBenchServer(t, 'bench-upstream.js', [upstreamPort]);
    const url = `http://127.0.0.1:${upstreamPort}/v1.1/customer/12345`;
    const stats = async (): Promise<{ connections: number; peakOpen: number }> =>
      (await send(`http://127.0.0.1:${upstreamPort}/__stats`)).json();
    const threeSockets = new http.Agent({ keepAlive: true, maxSockets: 3 });
    const oneSocket = new http.Agent({ keepAlive: true, maxSockets: 1 });
    t.teardown(() => {
      threeSockets.destroy();
      oneSocket.destroy();
    });
    await stats();
    await Promise.all(Array.from({ length: 9 }, () => send(url, { agent: threeSockets })));
    t.is((await stats()).peakOpen, 3, 'three keep-alive connections carried the nine requests');
    // The three stay open and idle while another client's one connection carries requests.
    await send(url, { agent: oneSocket });
    await send(url, { agent: oneSocket });
    t.is((await stats()).peakOpen, 1);
    t.is((await stats()).peakOpen, 0, 'nothing was requested since the last read');
  },
);

for (const { row, script } of FLOORS) {
  test(`the ${row} floor answers 502 when its upstream is gone`, async (t) => {
    const { upstream, proxyPort } = await startFloorWithUpstream(t, script);
    t.is((await send(`http://127.0.0.1:${proxyPort}/v1.1/customer/12345`)).status, 200);
    upstream.kill('SIGKILL');
    await new Promise((resolve) => upstream.once('exit', resolve));
    t.is((await send(`http://127.0.0.1:${proxyPort}/v1.1/customer/12345`)).status, 502);
  });
}
