// The fixed-rate scenario's load generator, run as the bench runs it (a child process) against a real
// server that notes when each request arrives: requests are spread over each second, not sent in a
// burst at its start, and answers above 399, failures and timeouts are counted apart.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { freePort } from '../../bench/net-utils.js';
import { runSteadyLoad, type LoadReport } from '../../bench/steady-load.js';
import { runNodeScript } from '../helpers/cli-process.js';

const GENERATOR = fileURLToPath(new URL('../../bench/steady-load.js', import.meta.url));

/** A server answering `status` (or never, for null) that records each request's arrival time in ms. */
async function recordingServer(
  t: ExecutionContext,
  status: number | null,
): Promise<{ url: string; arrivals: number[]; bodies: string[] }> {
  const arrivals: number[] = [];
  const bodies: string[] = [];
  const server = http.createServer((request, response) => {
    arrivals.push(performance.now());
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      bodies.push(`${request.method} ${body}`);
      if (status !== null) response.writeHead(status, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1.1/customer/12345`, arrivals, bodies };
}

/** The generator's report of a run that must succeed. */
async function runGenerator(args: string[]): Promise<LoadReport> {
  const { code, stdout, stderr } = await runNodeScript(GENERATOR, args);
  if (code !== 0) throw new Error(`generator exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as LoadReport;
}

test('200 requests/s for 1 s arrive spread over the second, not in a burst at its start', async (t) => {
  const server = await recordingServer(t, 200);
  const report = await runGenerator([server.url, '200', '1', '4']);

  t.like(report, { requests: 200, socketErrors: 0, timeouts: 0, non2xx: 0 });
  t.is(server.arrivals.length, 200);
  const first = server.arrivals[0]!;
  const windows = new Array<number>(10).fill(0);
  for (const at of server.arrivals) windows[Math.min(9, Math.floor((at - first) / 100))]! += 1;
  // Evenly spaced, each 100 ms window holds 20; a sender that bursts each second's share holds all 200 in the first.
  t.true(Math.max(...windows) <= 100, `arrivals per 100 ms: ${windows.join(' ')}`);
  t.true(windows.filter((count) => count > 0).length >= 5, `arrivals per 100 ms: ${windows.join(' ')}`);
  t.true(
    server.arrivals.at(-1)! - first >= 700,
    `the last request arrived ${Math.round(server.arrivals.at(-1)! - first)} ms after the first`,
  );
  t.true(report.p50Us > 0 && report.p50Us <= report.p99Us && report.p99Us <= report.p999Us);
});

test('a POST body is sent, and answers above 399 are counted as such', async (t) => {
  const server = await recordingServer(t, 500);
  const report = await runGenerator([server.url, '50', '0.2', '2', 'post', '{"timeWindow":30}']);
  t.like(report, { requests: 10, non2xx: 10, socketErrors: 0, timeouts: 0 });
  t.deepEqual(new Set(server.bodies), new Set(['POST {"timeWindow":30}']));
});

test('requests left unanswered are timeouts, and a refused connection is a socket error', async (t) => {
  const silent = await recordingServer(t, null);
  t.like(await runSteadyLoad({ url: silent.url, rate: 20, seconds: 0.25, maxConnections: 5, timeoutMs: 200 }), {
    requests: 0,
    timeouts: 5,
    socketErrors: 0,
  });

  const closedPort = await freePort(); // nothing listens there
  t.like(await runSteadyLoad({ url: `http://127.0.0.1:${closedPort}/`, rate: 20, seconds: 0.25, maxConnections: 5 }), {
    requests: 0,
    socketErrors: 5,
    timeouts: 0,
  });
});

test('bad arguments get the usage and exit 2; a run too short for one request reports none', async (t) => {
  const { code, stderr } = await runNodeScript(GENERATOR, ['http://127.0.0.1:9/', 'fast', '1', '4']);
  t.is(code, 2);
  t.regex(stderr, /^usage: steady-load\.js URL RATE SECONDS MAX_CONNECTIONS/);

  t.like(await runSteadyLoad({ url: 'http://127.0.0.1:9/', rate: 1, seconds: 0.1, maxConnections: 1 }), {
    requests: 0,
    socketErrors: 0,
    timeouts: 0,
  });
});
