// The half-open flood of `npm run flood -- --half-open N`: one caller (127.0.0.1) holds N half-open
// connections to the admin listener and opens a new one for each the sidecar closes, while the kubelet
// (127.0.0.2: on the pod network it probes from its node's address) asks /healthz and /readyz on a new
// connection every 200 ms, each given the kubelet's default timeout of one second. Prints and writes
// (bench/results/half-open-flood-*.json) how many probes were answered, how fast, and how many of the
// flood's connections the sidecar cut.
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { churnConnections } from '../test/helpers/connection-churn.js';

const ATTACKER = '127.0.0.1';
const KUBELET = '127.0.0.2';
const PROBE_TIMEOUT_MS = 1000;
const PROBE_EVERY_MS = 200;

export interface HalfOpenFloodResult {
  readonly connections: number;
  readonly durationS: number;
  /** Connections of the flood the sidecar closed (refused, or closed to make room), per second. */
  readonly cutPerSecond: number;
  readonly probes: number;
  readonly probeFailures: readonly { atMs: number; path: string; status: number }[];
  readonly probeSuccessPercent: number;
  readonly medianProbeMs: number;
  readonly slowestProbeMs: number;
}

/** A probe as the kubelet sends it: its status, or 0 for no answer within the timeout. */
function probe(port: number, path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number): void => resolve({ status, ms: performance.now() - started });
    const request = http.get(
      { host: '127.0.0.1', port, path, localAddress: KUBELET, agent: false, timeout: PROBE_TIMEOUT_MS },
      (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode ?? 0));
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => done(0));
  });
}

const round = (value: number): number => Math.round(value * 10) / 10;

async function halfOpenFlood(adminPort: number, connections: number, seconds: number): Promise<HalfOpenFloodResult> {
  const flood = churnConnections({ port: adminPort, from: ATTACKER, connections });
  const started = performance.now();
  const failures: { atMs: number; path: string; status: number }[] = [];
  const times: number[] = [];
  while (performance.now() - started < seconds * 1000) {
    for (const path of ['/healthz', '/readyz']) {
      const result = await probe(adminPort, path);
      times.push(result.ms);
      if (result.status !== 200)
        failures.push({ atMs: Math.round(performance.now() - started), path, status: result.status });
    }
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
  const durationS = (performance.now() - started) / 1000;
  flood.stop();
  times.sort((a, b) => a - b);
  return {
    connections,
    durationS: round(durationS),
    cutPerSecond: Math.round(flood.cut() / durationS),
    probes: times.length,
    probeFailures: failures,
    probeSuccessPercent: round((100 * (times.length - failures.length)) / times.length),
    medianProbeMs: round(times[Math.floor(times.length / 2)] ?? 0),
    slowestProbeMs: round(times.at(-1) ?? 0),
  };
}

/** Runs the flood against the admin listener on `adminPort`, reports it; whether every probe was answered. */
export async function runHalfOpenFlood(
  root: string,
  adminPort: number,
  connections: number,
  seconds: number,
): Promise<boolean> {
  const at = new Date().toISOString();
  const result = { at, node: process.version, ...(await halfOpenFlood(adminPort, connections, seconds)) };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(root, 'bench/results', `half-open-flood-${at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  const failed = result.probeFailures.length;
  process.stdout.write(
    [
      '| half-open connections | seconds | cut per second | probes | failed | succeeded | median | slowest |',
      '|---|---|---|---|---|---|---|---|',
      `| ${connections} | ${result.durationS} | ${result.cutPerSecond} | ${result.probes} | ${failed} | ` +
        `${result.probeSuccessPercent} % | ${result.medianProbeMs} ms | ${result.slowestProbeMs} ms |`,
      `written to ${file}`,
      '',
    ].join('\n'),
  );
  if (failed > 0) process.stderr.write(`flood failed: ${failed} probe(s) failed\n`);
  return failed === 0;
}
