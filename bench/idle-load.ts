// The idle row: a pod with no signing traffic still has its probes and its scrape. For `seconds`, each
// measured process gets the kubelet's readiness and liveness probes at the periods injection writes, each on
// a new connection as the kubelet sends them, and a Prometheus scrape on a kept-alive connection at the
// chart's scrape interval; the process's CPU time and its main thread's wake-ups over that time are what
// the row reports. The sidecar and `stack` get the same load on their admin listeners, so that the wake-ups
// the probes and scrapes cause themselves show in the stack's figures.
import http from 'node:http';
import { mainThreadSwitches, memoryMb, processCpuMs } from './proc-stats.js';

/** The kubelet's and Prometheus' periods, in seconds: readiness and liveness as injected, the chart's scrape. */
export const IDLE_LOAD_PERIODS = { readiness: 5, liveness: 10, scrape: 30 } as const;

export interface IdleTarget {
  readonly pid: number;
  /** `http://127.0.0.1:PORT` of its admin listener. */
  readonly admin: string;
}

export interface IdleMeasurement {
  readonly seconds: number;
  /** CPU time of all threads over the spell. */
  readonly cpuMs: number;
  /** CPU time over the spell as a share of one core, in percent. */
  readonly corePercent: number;
  /** Main-thread context switches per second, voluntary and involuntary. */
  readonly wakeupsPerSecond: number;
  /** Probes and scrapes sent, and how many were not answered 200. */
  readonly requests: number;
  readonly failed: number;
  /** RSS and private memory at the end of the spell. */
  readonly rssMb: number;
  readonly anonymousMb: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One GET; resolves with its status, 0 when it failed. */
function get(url: string, agent: http.Agent | false): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers: agent ? {} : { connection: 'close' } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    request.on('error', () => resolve(0));
  });
}

/**
 * Applies the probe and scrape load to every target at once for `settleSeconds + seconds`; measures the last
 * `seconds`.
 */
export async function measureIdle(
  targets: readonly IdleTarget[],
  seconds: number,
  settleSeconds: number,
): Promise<(IdleMeasurement | null)[]> {
  const agents = targets.map(() => new http.Agent({ keepAlive: true }));
  const counts = targets.map(() => ({ requests: 0, failed: 0 }));
  let stopped = false;
  const send = (index: number, path: string, agent: http.Agent | false): void => {
    void get(`${targets[index]!.admin}${path}`, agent).then((status) => {
      counts[index]!.requests += 1;
      if (status !== 200) counts[index]!.failed += 1;
    });
  };
  const loop = async (): Promise<void> => {
    for (let tick = 0; !stopped; tick += 1) {
      targets.forEach((_, index) => {
        if (tick % IDLE_LOAD_PERIODS.readiness === 0) send(index, '/readyz', false);
        if (tick % IDLE_LOAD_PERIODS.liveness === 0) send(index, '/healthz', false);
        if (tick % IDLE_LOAD_PERIODS.scrape === 0) send(index, '/metrics', agents[index]!);
      });
      await sleep(1000);
    }
  };
  const load = loop();
  await sleep(settleSeconds * 1000);
  const before = targets.map(({ pid }) => ({ cpu: processCpuMs(pid), switches: mainThreadSwitches(pid) }));
  const countsBefore = counts.map((c) => ({ ...c }));
  await sleep(seconds * 1000);
  const after = targets.map(({ pid }) => ({
    cpu: processCpuMs(pid),
    switches: mainThreadSwitches(pid),
    memory: memoryMb(pid),
  }));
  stopped = true;
  await load;
  for (const agent of agents) agent.destroy();
  return targets.map((_, i) => {
    const [b, a] = [before[i]!, after[i]!];
    if (b.cpu === null || a.cpu === null || b.switches === null || a.switches === null || a.memory === null)
      return null;
    const cpuMs = Math.round((a.cpu - b.cpu) * 10) / 10;
    return {
      seconds,
      cpuMs,
      corePercent: Math.round((cpuMs / (seconds * 1000)) * 100 * 1000) / 1000,
      wakeupsPerSecond: Math.round(((a.switches - b.switches) / seconds) * 100) / 100,
      requests: counts[i]!.requests - countsBefore[i]!.requests,
      failed: counts[i]!.failed - countsBefore[i]!.failed,
      ...a.memory,
    };
  });
}

export function formatIdle(rows: Readonly<Record<string, IdleMeasurement | null>>, seconds: number): string {
  const lines = [
    '',
    `Idle for ${seconds} s with the kubelet's probes (readiness every ${IDLE_LOAD_PERIODS.readiness} s, liveness ` +
      `every ${IDLE_LOAD_PERIODS.liveness} s) and a scrape every ${IDLE_LOAD_PERIODS.scrape} s`,
    '| row | CPU ms | % of a core | main-thread wake-ups/s | probes and scrapes (not 200) | Anonymous MB | RSS MB |',
    '|---|---|---|---|---|---|---|',
    ...Object.entries(rows).map(([row, m]) =>
      m === null
        ? `| ${row} | gone | - | - | - | - | - |`
        : `| ${row} | ${m.cpuMs} | ${m.corePercent} | ${m.wakeupsPerSecond} | ${m.requests} (${m.failed}) | ` +
          `${m.anonymousMb} | ${m.rssMb} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
