// `npm run flood [-- --connections N]`: N connection attempts (20,000 by default) to the admin listener
// of the sidecar as shipped, each sending a kept-alive GET /healthz and then holding its connection
// idle, while a prober checks /healthz on a new connection and a signed GET every 200 ms. Prints and
// writes (bench/results/connection-flood-*.json) the sidecar's RSS before and at most, the connections
// it held, how many it closed, and every probe that failed. Fails when a probe failed or RSS passed the
// chart's memory limit. Not part of `npm test`.
// `npm run flood -- --half-open N [--seconds S]`: instead, N half-open connections from one address,
// re-opened as they are cut, for S seconds (20 by default), against the kubelet's probes from another
// (half-open-flood.ts); fails when a probe failed.
import http from 'node:http';
import net from 'node:net';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulatorChild, startShippedSidecarChild, superviseChildren } from './child-supervisor.js';
import { freePort, waitForPort } from './net-utils.js';
import { runHalfOpenFlood } from './half-open-flood.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const argument = process.argv.indexOf('--connections');
const attempts = argument > 0 ? Number(process.argv[argument + 1]) : 20_000;
const numberAfter = (flag: string): number | null => {
  const at = process.argv.indexOf(flag);
  return at > 0 ? Number(process.argv[at + 1]) : null;
};
const halfOpen = numberAfter('--half-open');
/** The chart's memory limit for the sidecar container (192Mi). */
const CHART_LIMIT_MB = 192 * 1.048576;
const OPEN_AT_ONCE = 200;

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const round = (value: number): number => Math.round(value * 10) / 10;

/** One GET on a new connection: its status, or 0 when it failed or took longer than 2 s. */
function probe(port: number, path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: false, timeout: 2000 }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
  });
}

/** Opens a connection, sends a kept-alive /healthz and leaves the connection open; resolves once answered or closed. */
function holdIdle(port: number, held: Set<net.Socket>, closedByServer: { count: number }): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    held.add(socket);
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: flood\r\n\r\n'));
    socket.once('data', () => resolve());
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (held.delete(socket)) closedByServer.count += 1;
      resolve();
    });
  });
}

async function main(): Promise<void> {
  const children = superviseChildren((description) => {
    process.stderr.write(`flood failed: ${description}\n`);
    process.exit(1);
  });
  process.on('exit', () => children.stopAll('SIGKILL'));
  const emulatorPort = await startEmulatorChild(children, ROOT);
  const [signingPort, adminPort] = [await freePort(), await freePort()];
  const sidecar = await startShippedSidecarChild(children, ROOT, emulatorPort, {
    signingPort,
    adminListen: `127.0.0.1:${adminPort}`,
  });
  await waitForPort(adminPort);
  await probe(signingPort, '/v1.1/customer/12345');
  if (halfOpen !== null) {
    const allAnswered = await runHalfOpenFlood(ROOT, adminPort, halfOpen, numberAfter('--seconds') ?? 20);
    children.stopAll('SIGTERM');
    if (!allAnswered) process.exitCode = 1;
    return;
  }
  const baselineMb = round(rssMb(sidecar.pid!));

  const held = new Set<net.Socket>();
  const closedByServer = { count: 0 };
  let peakMb = baselineMb;
  let mostHeld = 0;
  const failures: { atMs: number; path: string; status: number }[] = [];
  let probes = 0;
  let slowestProbeMs = 0;
  const started = Date.now();
  let flooding = true;
  const prober = (async () => {
    while (flooding) {
      for (const [port, path] of [
        [adminPort, '/healthz'],
        [signingPort, '/v1.1/customer/12345'],
      ] as const) {
        const result = await probe(port, path);
        probes += 1;
        slowestProbeMs = Math.max(slowestProbeMs, result.ms);
        if (result.status !== 200) failures.push({ atMs: Date.now() - started, path, status: result.status });
      }
      peakMb = Math.max(peakMb, rssMb(sidecar.pid!));
      mostHeld = Math.max(mostHeld, held.size);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  for (let opened = 0; opened < attempts; opened += OPEN_AT_ONCE) {
    const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, attempts - opened) }, () =>
      holdIdle(adminPort, held, closedByServer),
    );
    await Promise.all(batch);
    peakMb = Math.max(peakMb, rssMb(sidecar.pid!));
    mostHeld = Math.max(mostHeld, held.size);
  }
  // The flood stays open for a few more probes, then ends.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  flooding = false;
  await prober;
  const metrics = await new Promise<string>((resolve) => {
    http.get({ host: '127.0.0.1', port: adminPort, path: '/metrics', agent: false }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
    });
  });
  const shed = [...metrics.matchAll(/^sfd_connections_shed_total\{listener="admin",reason="(\w+)"\} (\d+)/gm)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
  for (const socket of held) socket.destroy();
  children.stopAll('SIGTERM');

  const result = {
    at: new Date().toISOString(),
    node: process.version,
    attempts,
    durationS: round((Date.now() - started) / 1000),
    baselineRssMb: baselineMb,
    peakRssMb: round(peakMb),
    chartLimitMb: round(CHART_LIMIT_MB),
    mostConnectionsHeldOpenByTheFlood: mostHeld,
    connectionsClosedBySidecar: closedByServer.count,
    shed,
    probes,
    probeFailures: failures,
    slowestProbeMs: round(slowestProbeMs),
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(ROOT, 'bench/results', `connection-flood-${result.at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    [
      `| attempts | RSS before | RSS at most | chart limit | held by flood at most | closed by sidecar | ` +
        `probes | failed | slowest probe |`,
      `|---|---|---|---|---|---|---|---|---|`,
      `| ${attempts} | ${result.baselineRssMb} MB | ${result.peakRssMb} MB | ${result.chartLimitMb} MB | ` +
        `${mostHeld} | ${closedByServer.count} | ${probes} | ${failures.length} | ${result.slowestProbeMs} ms |`,
      `shed: ${shed.join(', ')}`,
      `written to ${file}`,
      '',
    ].join('\n'),
  );
  if (failures.length > 0 || peakMb > CHART_LIMIT_MB) {
    process.stderr.write(`flood failed: ${failures.length} probe(s) failed, RSS at most ${result.peakRssMb} MB\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`flood failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
