// The performance targets for the shipped sidecar (GET), checked against one benchmark run: each verdict
// gives the run's figure (the median over rounds, ratios taken within each round), its spread over
// rounds, and whether the target was met. Timings never fail the bench (CI runs the quick form,
// which fails only on errors); the verdicts are for the reader. Growth over 5 minutes is the soak's
// (`npm run soak`), not the bench's.
import { addedP50ByRound, ratiosByRound } from './bench-report.js';
import { median, type Measurement, type Rounds } from './measurement.js';

export interface TargetLimits {
  readonly maxCpuUsPerRequest: number;
  /** Sidecar req/s over nginx's, at concurrency 32. */
  readonly minShareOfNginx: number;
  readonly maxAddedP50Ms: number;
  readonly maxRssMb: number;
  /** The sidecar's SFD_UPSTREAM_MAX_SOCKETS in the run. */
  readonly maxUpstreamSockets: number;
}

export const ISSUE_5_TARGETS: Omit<TargetLimits, 'maxUpstreamSockets'> = Object.freeze({
  maxCpuUsPerRequest: 200,
  minShareOfNginx: 0.3,
  maxAddedP50Ms: 0.35,
  maxRssMb: 80,
});

/** A socket opened per request carries one; a reused one carries many. */
const MIN_REQUESTS_PER_NEW_SOCKET = 10;
const CONCURRENCY_1 = 'GET, concurrency 1';
const CONCURRENCY_32 = 'GET, concurrency 32';

export interface TargetVerdict {
  readonly target: string;
  readonly measured: string;
  /** null when this run cannot tell (a row the target compares with was not measured). */
  readonly met: boolean | null;
}

const figure = (value: number, digits: number): string => value.toFixed(digits);

/** "median unit (rounds min-max)", or the single value of a one-round run. */
function spread(values: number[], digits: number, unit = '', scale = 1): string {
  const m = `${figure(median(values) * scale, digits)}${unit}`;
  if (values.length < 2) return m;
  return `${m} (rounds ${figure(Math.min(...values) * scale, digits)}-${figure(Math.max(...values) * scale, digits)})`;
}

const defined = (values: (number | null)[]): number[] => values.filter((v): v is number => v !== null);

export function checkTargets(rounds: Rounds, limits: TargetLimits): TargetVerdict[] {
  const c1 = rounds[CONCURRENCY_1] ?? {};
  const c32 = rounds[CONCURRENCY_32] ?? {};
  const sidecarRounds = Object.values(rounds).flatMap((byRow) => byRow.sidecar ?? []);
  const cpu = (m: Measurement): number | null => m.cpuUsPerRequest;
  const verdicts: TargetVerdict[] = [];

  const sidecarCpu = defined((c32.sidecar ?? []).map(cpu));
  const overPlainNode = ratiosByRound(c32, 'sidecar', 'plain-node', cpu);
  verdicts.push({
    target: `CPU per request at concurrency 32 ≤ ${limits.maxCpuUsPerRequest} µs`,
    measured:
      sidecarCpu.length === 0
        ? 'not measured'
        : spread(sidecarCpu, 0, ' µs') +
          (overPlainNode.length > 0 ? `; the plain-node row's × ${spread(overPlainNode, 2)}` : ''),
    met: sidecarCpu.length === 0 ? null : median(sidecarCpu) <= limits.maxCpuUsPerRequest,
  });

  const share = ratiosByRound(c32, 'sidecar', 'nginx', (m) => m.rps);
  const capacity = ratiosByRound(c32, 'nginx', 'sidecar', cpu);
  verdicts.push({
    target: `throughput at concurrency 32 ≥ ${limits.minShareOfNginx * 100}% of nginx's`,
    measured:
      share.length === 0
        ? 'no nginx row'
        : `${spread(share, 1, '%', 100)}; by CPU per request (capacity on one core) ${spread(capacity, 1, '%', 100)}`,
    met: share.length === 0 ? null : median(share) >= limits.minShareOfNginx,
  });

  const added = addedP50ByRound(c1);
  verdicts.push({
    target: `added p50 at concurrency 1 ≤ ${limits.maxAddedP50Ms} ms`,
    measured: added.length === 0 ? 'not measured' : `+${spread(added, 3, ' ms')}`,
    met: added.length === 0 ? null : median(added) <= limits.maxAddedP50Ms,
  });

  const rss = defined(sidecarRounds.map((m) => m.rssMb));
  verdicts.push({
    target: `RSS under load ≤ ${limits.maxRssMb} MB`,
    measured: rss.length === 0 ? 'not measured' : `at most ${Math.max(...rss)} MB in any round (growth: npm run soak)`,
    met: rss.length === 0 ? null : Math.max(...rss) <= limits.maxRssMb,
  });

  const errors = sidecarRounds.reduce((sum, m) => sum + m.errors, 0);
  verdicts.push({
    target: 'zero errors in every scenario',
    measured: `${errors} through the sidecar`,
    met: sidecarRounds.length === 0 ? null : errors === 0,
  });

  const peak = defined(sidecarRounds.map((m) => m.peakUpstreamSockets));
  // The scenario whose new upstream sockets carried the fewest requests each.
  let leastReused: { scenario: string; perSocket: number } | null = null;
  for (const [scenario, byRow] of Object.entries(rounds)) {
    const runs = byRow.sidecar ?? [];
    if (runs.length === 0) continue;
    const opened = runs.reduce((sum, m) => sum + (m.newUpstreamSockets ?? 0), 0);
    const perSocket = runs.reduce((sum, m) => sum + m.requests, 0) / Math.max(opened, 1);
    if (leastReused === null || perSocket < leastReused.perSocket) leastReused = { scenario, perSocket };
  }
  verdicts.push({
    target:
      `upstream sockets bounded (≤ ${limits.maxUpstreamSockets} open) and reused (≥ ` +
      `${MIN_REQUESTS_PER_NEW_SOCKET} requests per new socket)`,
    measured:
      peak.length === 0 || leastReused === null
        ? 'not measured'
        : `at most ${Math.max(...peak)} open at once; each new socket carried ` +
          `${Math.floor(leastReused.perSocket)} requests or more (fewest: ${leastReused.scenario})`,
    met:
      peak.length === 0 || leastReused === null
        ? null
        : Math.max(...peak) <= limits.maxUpstreamSockets && leastReused.perSocket >= MIN_REQUESTS_PER_NEW_SOCKET,
  });
  return verdicts;
}

export function formatTargets(verdicts: TargetVerdict[], indicativeOnly: boolean): string {
  const lines = [
    '',
    `Performance targets (GET, the sidecar as ` +
      `shipped)${indicativeOnly ? ': indicative only, from one short round' : ''}`,
    '| target | this run | met? |',
    '|---|---|---|',
    ...verdicts.map(
      (v) => `| ${v.target} | ${v.measured} | ${v.met === null ? 'cannot tell' : v.met ? 'yes' : 'no'} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
