// The performance targets for the shipped sidecar, checked on each Node line against one benchmark run:
// each verdict gives the run's figure (the median over rounds of a value taken within each round,
// so that a slow spell of the machine weighs on both sides of a ratio), its spread over rounds, and
// whether the target was met. The floor the sidecar is held to is `plain-node`, a bare Node proxy on
// the same Node line with the same flags. Where the run measured `stack` (hono's adapter and http-proxy
// alone) on that line, each cost verdict also gives that row's figure: the share of the cost that the
// requested stack takes before any of the sidecar's own code runs; the latency verdict also gives
// nginx's. Those figures are told, never judged. Timings never fail the bench (CI runs the quick form,
// which fails only on errors); the verdicts are for the reader. Growth over 5 minutes is the soak's
// (`npm run soak`), not the bench's.
import { addedP50ByRound, addedRssByRound, differencesByRound, ratiosByRound } from './bench-report.js';
import { median, rowOf, type Measurement, type NodeProxy, type Rounds } from './measurement.js';

export interface TargetLimits {
  /** Sidecar CPU per request over plain-node's, at a steady 1000 requests/s. */
  readonly maxCpuOverPlainNode: number;
  /** Sidecar RSS minus plain-node's, in the scenario where it is largest. */
  readonly maxRssOverPlainNodeMb: number;
  /** Sidecar req/s over nginx's, at concurrency 32. */
  readonly minShareOfNginx: number;
  readonly maxAddedP50Ms: number;
  /** The sidecar's SFD_UPSTREAM_MAX_SOCKETS in the run. */
  readonly maxUpstreamSockets: number;
}

export const PER_POD_TARGETS: Omit<TargetLimits, 'maxUpstreamSockets'> = Object.freeze({
  maxCpuOverPlainNode: 1.3,
  maxRssOverPlainNodeMb: 5,
  minShareOfNginx: 0.4,
  maxAddedP50Ms: 0.15,
});

/** A socket opened per request carries one; a reused one carries many. */
const MIN_REQUESTS_PER_NEW_SOCKET = 10;
const CONCURRENCY_1 = 'GET, concurrency 1';
const CONCURRENCY_32 = 'GET, concurrency 32';
export const STEADY_1000 = 'GET at a fixed 1000 requests/s';

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

/** A figure of each measurement that has it. */
const figuresOf = (runs: readonly Measurement[], f: (m: Measurement) => number | null): number[] =>
  runs.flatMap((m) => {
    const value = f(m);
    return value === null ? [] : [value];
  });

const signed = (value: number, digits: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;

/** The verdicts for the sidecar on one Node line (its major version). */
export function checkTargets(rounds: Rounds, limits: TargetLimits, line: number): TargetVerdict[] {
  const sidecar = rowOf('sidecar', line);
  const stack = rowOf('stack', line);
  const plain = rowOf('plain-node', line);
  const c1 = rounds[CONCURRENCY_1] ?? {};
  const c32 = rounds[CONCURRENCY_32] ?? {};
  const steady = rounds[STEADY_1000] ?? {};
  const sidecarRounds = Object.values(rounds).flatMap((byRow) => byRow[sidecar] ?? []);
  const verdicts: TargetVerdict[] = [];

  const cpu = ratiosByRound(steady, sidecar, plain, (m) => m.cpuUsPerRequest);
  const sidecarCpu = figuresOf(steady[sidecar] ?? [], (m) => m.cpuUsPerRequest);
  const plainCpu = figuresOf(steady[plain] ?? [], (m) => m.cpuUsPerRequest);
  verdicts.push({
    target: `CPU per request at a steady 1000 requests/s ≤ ${limits.maxCpuOverPlainNode} × plain-node's`,
    measured:
      cpu.length === 0
        ? 'no plain-node row'
        : `× ${spread(cpu, 2)}; ${median(sidecarCpu)} µs against ${median(plainCpu)} µs` +
          stackAlone(
            ratiosByRound(steady, stack, plain, (m) => m.cpuUsPerRequest),
            (v) => `× ${figure(v, 2)}`,
          ),
    met: cpu.length === 0 ? null : median(cpu) <= limits.maxCpuOverPlainNode,
  });

  const worst = mostAddedRss(rounds, line, 'sidecar');
  const stackWorst = mostAddedRss(rounds, line, 'stack');
  verdicts.push({
    target: `RSS under load ≤ plain-node's + ${limits.maxRssOverPlainNodeMb} MB in every scenario`,
    measured:
      worst === null
        ? 'no plain-node row'
        : `${signed(median(worst.values), 1)} MB at most (${worst.scenario}; rounds ` +
          `${signed(Math.min(...worst.values), 1)} to ${signed(Math.max(...worst.values), 1)}); ` +
          `${Math.max(...sidecarRounds.map((m) => m.rssMb ?? 0))} MB the most in any round` +
          stackAlone(stackWorst?.values ?? [], (v) => `${signed(v, 1)} MB at most (${stackWorst!.scenario})`),
    met: worst === null ? null : median(worst.values) <= limits.maxRssOverPlainNodeMb,
  });

  const share = ratiosByRound(c32, sidecar, 'nginx', (m) => m.rps);
  const capacity = ratiosByRound(c32, 'nginx', sidecar, (m) => m.cpuUsPerRequest);
  verdicts.push({
    target: `throughput at concurrency 32 ≥ ${limits.minShareOfNginx * 100}% of nginx's`,
    measured:
      share.length === 0
        ? 'no nginx row'
        : `${spread(share, 1, '%', 100)}; by CPU per request (capacity on one core) ${spread(capacity, 1, '%', 100)}` +
          stackAlone(
            ratiosByRound(c32, stack, 'nginx', (m) => m.rps),
            (v) => `${figure(v * 100, 1)}%`,
          ),
    met: share.length === 0 ? null : median(share) >= limits.minShareOfNginx,
  });

  const added = addedP50ByRound(c1, line);
  // nginx's own figure tells whether the limit is within reach of any proxy on this machine.
  const nginxAdded = differencesByRound(c1, 'nginx', 'direct', (m) => m.p50Ms);
  verdicts.push({
    target: `added p50 at concurrency 1 ≤ ${limits.maxAddedP50Ms} ms`,
    measured:
      added.length === 0
        ? 'not measured'
        : `+${spread(added, 3, ' ms')}` +
          stackAlone(addedP50ByRound(c1, line, 'stack'), (v) => `+${figure(v, 3)} ms`) +
          (nginxAdded.length === 0 ? '' : `; nginx: +${figure(median(nginxAdded), 3)} ms`),
    met: added.length === 0 ? null : median(added) <= limits.maxAddedP50Ms,
  });

  const errors = sidecarRounds.reduce((sum, m) => sum + m.errors, 0);
  verdicts.push({
    target: 'zero errors in every scenario',
    measured: `${errors} through the sidecar`,
    met: sidecarRounds.length === 0 ? null : errors === 0,
  });

  const peak = figuresOf(sidecarRounds, (m) => m.peakUpstreamSockets);
  // The scenario whose new upstream sockets carried the fewest requests each.
  let leastReused: { scenario: string; perSocket: number } | null = null;
  for (const [scenario, byRow] of Object.entries(rounds)) {
    const runs = byRow[sidecar] ?? [];
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

/** "; hono and http-proxy alone (stack): FIGURE" from the median of the stack row's values, or nothing. */
function stackAlone(values: number[], format: (value: number) => string): string {
  return values.length === 0 ? '' : `; hono and http-proxy alone (stack): ${format(median(values))}`;
}

/** The scenario in which a Node proxy holds the most over plain-node, by the median of its rounds. */
function mostAddedRss(rounds: Rounds, line: number, proxy: NodeProxy): { scenario: string; values: number[] } | null {
  let worst: { scenario: string; values: number[] } | null = null;
  for (const [scenario, byRow] of Object.entries(rounds)) {
    const values = addedRssByRound(byRow, line, proxy);
    if (values.length > 0 && (worst === null || median(values) > median(worst.values))) worst = { scenario, values };
  }
  return worst;
}

export function formatTargets(verdicts: TargetVerdict[], node: string, indicativeOnly: boolean): string {
  const lines = [
    '',
    `Performance targets on Node ${node} (GET, the sidecar as ` +
      `shipped)${indicativeOnly ? ': indicative only, from one short round' : ''}`,
    '| target | this run | met? |',
    '|---|---|---|',
    ...verdicts.map(
      (v) => `| ${v.target} | ${v.measured} | ${v.met === null ? 'cannot tell' : v.met ? 'yes' : 'no'} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
