// The start-to-ready row: from exec to the first 200 from the process's readiness path, and the CPU time
// it spent until then. Each launch runs alone on core 0 while this process polls from the other core
// every POLL_MS on a new connection each time, as the kubelet's probe would (it probes once a second; the
// bench polls faster to see the moment itself). The launches alternate within each round, so that a busy
// spell of the machine weighs on every row alike, and each row's figure is the median over rounds.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { freePort } from './net-utils.js';
import { processCpuMs } from './proc-stats.js';

const POLL_MS = 2;
/** A launch that does not answer in this long has failed. */
const GIVE_UP_MS = 30_000;

export interface Launch {
  readonly row: string;
  readonly binary: string;
  /** The arguments, given the port the launch must answer on. */
  readonly args: (port: number) => string[];
  readonly env: (port: number) => NodeJS.ProcessEnv;
  /** The path that answers 200 once the process is ready. */
  readonly path: string;
}

export interface ReadyMeasurement {
  readonly ms: number;
  readonly cpuMs: number;
}

/** The status of one GET on a new connection; 0 when nothing answered. */
function probe(url: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    request.on('error', () => resolve(0));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the launch pinned to core 0 and waits for its first 200; stops it after. */
export async function startToReady(launch: Launch): Promise<ReadyMeasurement> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${launch.path}`;
  const started = performance.now();
  const child = spawn('taskset', ['-c', '0', launch.binary, ...launch.args(port)], {
    env: launch.env(port),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-500)));
  let exited = false;
  let exit = '';
  child.once('exit', (code, signal) => {
    exited = true;
    exit = signal ?? `code ${code}`;
  });
  try {
    for (;;) {
      const status = await probe(url);
      if (status === 200) {
        const ms = performance.now() - started;
        const cpuMs = processCpuMs(child.pid!);
        if (cpuMs === null) throw new Error(`${launch.row} exited as it became ready`);
        return { ms: Math.round(ms * 10) / 10, cpuMs: Math.round(cpuMs * 10) / 10 };
      }
      if (exited) {
        const said = stderr.trim() === '' ? '' : `: ${stderr.trim()}`;
        throw new Error(`${launch.row} exited (${exit}) before it answered ${launch.path} with 200${said}`);
      }
      if (performance.now() - started > GIVE_UP_MS)
        throw new Error(`${launch.row} did not answer ${launch.path} with 200 within ${GIVE_UP_MS} ms`);
      await sleep(POLL_MS);
    }
  } finally {
    child.kill('SIGKILL');
    if (!exited) await new Promise((resolve) => child.once('exit', resolve));
  }
}

/**
 * Every launch once per round, in turn; each row's measurements in round order. A launch that fails is tried
 * once more, then told in `failures` and left out of that round: one failure never costs the run.
 */
export async function measureStartToReady(
  launches: readonly Launch[],
  rounds: number,
): Promise<{ rows: Record<string, ReadyMeasurement[]>; failures: string[] }> {
  const rows: Record<string, ReadyMeasurement[]> = {};
  const failures: string[] = [];
  for (let round = 0; round < rounds; round += 1)
    for (const launch of launches) {
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        try {
          (rows[launch.row] ??= []).push(await startToReady(launch));
          break;
        } catch (error) {
          failures.push(`round ${round + 1}, attempt ${attempt}: ${(error as Error).message}`);
        }
      }
    }
  return { rows, failures };
}

const medianOf = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export function formatStartToReady(rows: Readonly<Record<string, readonly ReadyMeasurement[]>>): string {
  const lines = [
    '',
    'From exec to the first 200 (a bare server: any path; the others: /readyz), median of the rounds',
    '| row | ms | CPU ms until ready | rounds (ms) |',
    '|---|---|---|---|',
    ...Object.entries(rows).map(
      ([row, runs]) =>
        `| ${row} | ${medianOf(runs.map((m) => m.ms)).toFixed(1)} | ` +
        `${medianOf(runs.map((m) => m.cpuMs)).toFixed(1)} | ` +
        `${runs.map((m) => m.ms.toFixed(0)).join(', ')} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
