// The performance targets for the shipped sidecar, checked on each Node line against one benchmark run:
// each verdict gives the run's figure (the median over rounds of a value taken within each round,
// so that a slow spell of the machine weighs on both sides of a ratio), its spread over rounds, and
// whether the target was met. The floor the sidecar is held to is `stack` on the same Node line: hono's
// adapter receiving and http-proxy forwarding with the sidecar's agent and limits and nothing else, the
// part of the cost no change to the sidecar's own code can remove. `plain-node` (a bare Node proxy) and
// nginx stay beside it as context, told and never judged. Timings never fail the bench (CI runs the quick
// form, which fails only on errors); the verdicts are for the reader. Growth over 5 minutes is the soak's
// (`npm run soak`), not the bench's.
import { addedP50ByRound, differencesByRound, ratiosByRound } from './bench-report.js';
import { median, rowOf, type Measurement, type Rounds } from './measurement.js';

export interface TargetLimits {
  /** Sidecar CPU per request over the stack's, at a steady 1000 requests/s. */
  readonly maxCpuOverStack: number;
  /** Sidecar req/s over the stack's, at concurrency 32, GET and POST alike. */
  readonly minThroughputShareOfStack: number;
  /** Sidecar p50 minus the stack's, at concurrency 1. */
  readonly maxAddedP50OverStackMs: number;
  /** Sidecar anonymous memory minus the stack's, in the scenario where it is largest. */
  readonly maxAnonymousOverStackMb: number;
  /** The sidecar's SFD_UPSTREAM_MAX_SOCKETS in the run. */
  readonly maxUpstreamSockets: number;
}

export const PER_POD_TARGETS: Omit<TargetLimits, 'maxUpstreamSockets'> = Object.freeze({
  maxCpuOverStack: 1.1,
  minThroughputShareOfStack: 0.9,
  maxAddedP50OverStackMs: 0.02,
  maxAnonymousOverStackMb: 3,
});

/** A socket opened per request carries one; a reused one carries many. */
const MIN_REQUESTS_PER_NEW_SOCKET = 10;
const CONCURRENCY_1 = 'GET, concurrency 1';
const CONCURRENCY_32 = 'GET, concurrency 32';
const POST_CONCURRENCY_32 = 'POST 1 KiB, concurrency 32';
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
  const steady = rounds[STEADY_1000] ?? {};
  const sidecarRounds = Object.values(rounds).flatMap((byRow) => byRow[sidecar] ?? []);
  const verdicts: TargetVerdict[] = [];

  const cpu = ratiosByRound(steady, sidecar, stack, (m) => m.cpuUsPerRequest);
  const sidecarCpu = figuresOf(steady[sidecar] ?? [], (m) => m.cpuUsPerRequest);
  const stackCpu = figuresOf(steady[stack] ?? [], (m) => m.cpuUsPerRequest);
  verdicts.push({
    target: `CPU per request at a steady 1000 requests/s ≤ ${limits.maxCpuOverStack} × the stack's`,
    measured:
      cpu.length === 0
        ? NO_STACK
        : `× ${spread(cpu, 2)}; ${median(sidecarCpu)} µs against ${median(stackCpu)} µs` +
          context(
            ratiosByRound(steady, sidecar, plain, (m) => m.cpuUsPerRequest),
            (v) => `plain-node's × ${v.toFixed(2)}`,
          ),
    met: cpu.length === 0 ? null : median(cpu) <= limits.maxCpuOverStack,
  });

  for (const scenario of [CONCURRENCY_32, POST_CONCURRENCY_32]) {
    const byRow = rounds[scenario] ?? {};
    const share = ratiosByRound(byRow, sidecar, stack, (m) => m.rps);
    const rps = figuresOf(byRow[sidecar] ?? [], (m) => m.rps);
    const stackRps = figuresOf(byRow[stack] ?? [], (m) => m.rps);
    verdicts.push({
      target: `throughput, ${scenario} ≥ ${limits.minThroughputShareOfStack * 100}% of the stack's`,
      measured:
        share.length === 0
          ? NO_STACK
          : `${spread(share, 1, '%', 100)}; ${median(rps)} against ${median(stackRps)} req/s` +
            context(
              ratiosByRound(byRow, sidecar, 'nginx', (m) => m.rps),
              (v) => `nginx's ${figure(v * 100, 1)}%`,
            ),
      met: share.length === 0 ? null : median(share) >= limits.minThroughputShareOfStack,
    });
  }

  const added = differencesByRound(c1, sidecar, stack, (m) => m.p50Ms);
  const overDirect = [
    ['sidecar', addedP50ByRound(c1, line)],
    ['stack', addedP50ByRound(c1, line, 'stack')],
    ['nginx', differencesByRound(c1, 'nginx', 'direct', (m) => m.p50Ms)],
  ] as const;
  const overDirectText = overDirect
    .filter(([, values]) => values.length > 0)
    .map(([row, values]) => `${row} +${figure(median(values), 3)} ms`)
    .join(', ');
  verdicts.push({
    target: `p50 at concurrency 1 ≤ the stack's + ${limits.maxAddedP50OverStackMs} ms`,
    measured:
      added.length === 0
        ? NO_STACK
        : `${signed(median(added), 3)} ms${rangeOf(added, 3)}` +
          (overDirectText === '' ? '' : `; added over direct: ${overDirectText}`),
    met: added.length === 0 ? null : median(added) <= limits.maxAddedP50OverStackMs,
  });

  const anonymous = mostOverStack(rounds, line, (m) => m.anonymousMb);
  const rss = mostOverStack(rounds, line, (m) => m.rssMb);
  verdicts.push({
    target: `private memory (Anonymous) ≤ the stack's + ${limits.maxAnonymousOverStackMb} MB in every scenario`,
    measured:
      anonymous === null
        ? NO_STACK
        : `${signed(median(anonymous.values), 1)} MB at most (${anonymous.scenario}; rounds ` +
          `${signed(Math.min(...anonymous.values), 1)} to ${signed(Math.max(...anonymous.values), 1)}); ` +
          `${Math.max(...figuresOf(sidecarRounds, (m) => m.anonymousMb))} MB the most in any round` +
          (rss === null ? '' : `; RSS ${signed(median(rss.values), 1)} MB at most (${rss.scenario})`),
    met: anonymous === null ? null : median(anonymous.values) <= limits.maxAnonymousOverStackMb,
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

const NO_STACK = 'no stack row on this line';

/** " (rounds min-max)", or nothing for a one-round run. */
function rangeOf(values: number[], digits: number): string {
  return values.length < 2
    ? ''
    : ` (rounds ${signed(Math.min(...values), digits)} to ${signed(Math.max(...values), digits)})`;
}

/** "; context: FIGURE" from the median of values the verdict tells and never judges, or nothing. */
function context(values: number[], format: (value: number) => string): string {
  return values.length === 0 ? '' : `; context: ${format(median(values))}`;
}

/** The scenario in which the sidecar holds the most over the stack on its line, by the median of its rounds. */
function mostOverStack(
  rounds: Rounds,
  line: number,
  f: (m: Measurement) => number | null,
): { scenario: string; values: number[] } | null {
  let worst: { scenario: string; values: number[] } | null = null;
  for (const [scenario, byRow] of Object.entries(rounds)) {
    const values = differencesByRound(byRow, rowOf('sidecar', line), rowOf('stack', line), f);
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
