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
import type { IdleMeasurement } from './idle-load.js';
import { median, rowOf, type Measurement, type Rounds } from './measurement.js';
import type { ReadyMeasurement } from './start-to-ready.js';

export interface TargetLimits {
  /** Sidecar CPU per request over the stack's, at a steady 1000 requests/s. */
  readonly maxCpuOverStack: number;
  /** Sidecar req/s over the stack's, at concurrency 32, GET and POST alike. */
  readonly minThroughputShareOfStack: number;
  /** Sidecar anonymous memory minus the stack's, in the scenario where it is largest. */
  readonly maxAnonymousOverStackMb: number;
  /** Sidecar p99 over the stack's at concurrency 32, GET and POST alike. */
  readonly maxP99OverStack: number;
  /** Sidecar p99.9 over the stack's at concurrency 32, GET and POST alike. */
  readonly maxP999OverStack: number;
  /** Rounds a tail verdict needs: fewer cannot tell a p99.9 from the machine's own pauses. */
  readonly minTailRounds: number;
  /** Idle with probes and scrapes: the sidecar's main-thread wake-ups per second beyond the stack's. */
  readonly maxIdleWakeupsOverStack: number;
  /** Idle with probes and scrapes: the sidecar's CPU time as a share of one core, in percent. */
  readonly maxIdleCorePercent: number;
  /** From exec to /readyz answering 200, over a bare Node HTTP server's time to its first answer. */
  readonly maxReadyOverBare: number;
  /** The sidecar's SFD_UPSTREAM_MAX_SOCKETS in the run. */
  readonly maxUpstreamSockets: number;
}

// The CPU, throughput and memory limits guard against regressions, with the rounds' own scatter as margin;
// the tail, idle and start-up ones are targets.
export const PER_POD_TARGETS: Omit<TargetLimits, 'maxUpstreamSockets'> = Object.freeze({
  maxCpuOverStack: 1.45,
  minThroughputShareOfStack: 0.65,
  maxAnonymousOverStackMb: 14,
  maxP99OverStack: 1.3,
  maxP999OverStack: 2,
  minTailRounds: 9,
  maxIdleWakeupsOverStack: 2,
  maxIdleCorePercent: 0.1,
  maxReadyOverBare: 2,
});

/** What a run measured besides the load scenarios: the idle row and the start-to-ready rounds. */
export interface OtherRows {
  readonly idle?: Readonly<Record<string, IdleMeasurement | null>>;
  /** By launch row (`bare-node@24`, `sidecar@24`, ...), in round order. */
  readonly ready?: Readonly<Record<string, readonly ReadyMeasurement[]>>;
}

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
  /** A figure told beside the targets and never judged. */
  readonly reportedOnly?: true;
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
export function checkTargets(
  rounds: Rounds,
  limits: TargetLimits,
  line: number,
  other: OtherRows = {},
): TargetVerdict[] {
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

  for (const scenario of [CONCURRENCY_32, POST_CONCURRENCY_32]) {
    const byRow = rounds[scenario] ?? {};
    for (const [name, limit, f] of [
      ['p99', limits.maxP99OverStack, (m: Measurement) => m.p99Ms],
      ['p99.9', limits.maxP999OverStack, (m: Measurement) => m.p999Ms],
    ] as const) {
      const ratio = ratiosByRound(byRow, sidecar, stack, f);
      const enough = ratio.length >= limits.minTailRounds;
      verdicts.push({
        target: `${name}, ${scenario} ≤ ${limit} × the stack's (${limits.minTailRounds} rounds or more)`,
        measured:
          ratio.length === 0
            ? NO_STACK
            : `× ${spread(ratio, 2)}; ${figure(median(figuresOf(byRow[sidecar] ?? [], f)), 1)} against ` +
              `${figure(median(figuresOf(byRow[stack] ?? [], f)), 1)} ms` +
              (enough ? '' : `; ${ratio.length} round(s): cannot tell`),
        met: !enough ? null : median(ratio) <= limit,
      });
    }
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
    target: "p50 at concurrency 1 over the stack's (reported)",
    measured:
      added.length === 0
        ? NO_STACK
        : `${signed(median(added), 3)} ms${rangeOf(added, 3)}` +
          (overDirectText === '' ? '' : `; added over direct: ${overDirectText}`),
    met: null,
    reportedOnly: true,
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

  verdicts.push(...idleVerdicts(other.idle ?? {}, limits, line), readyVerdict(other.ready ?? {}, limits, line));

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

/** Idle with the probe and scrape load: wake-ups beyond the stack's, and CPU. */
function idleVerdicts(idle: NonNullable<OtherRows['idle']>, limits: TargetLimits, line: number): TargetVerdict[] {
  const sidecar = idle[rowOf('sidecar', line)] ?? null;
  const stack = idle[rowOf('stack', line)] ?? null;
  const wakeups: TargetVerdict = {
    target: `idle, probes and scrapes: main-thread wake-ups ≤ the stack's + ${limits.maxIdleWakeupsOverStack}/s`,
    measured:
      sidecar === null || stack === null
        ? 'not measured on this line'
        : `${signed(sidecar.wakeupsPerSecond - stack.wakeupsPerSecond, 2)}/s; ${sidecar.wakeupsPerSecond}/s ` +
          `against ${stack.wakeupsPerSecond}/s over ${sidecar.seconds} s`,
    met:
      sidecar === null || stack === null
        ? null
        : sidecar.wakeupsPerSecond - stack.wakeupsPerSecond <= limits.maxIdleWakeupsOverStack,
  };
  const cpu: TargetVerdict = {
    target: `idle, probes and scrapes: CPU ≤ ${limits.maxIdleCorePercent}% of a core`,
    measured:
      sidecar === null
        ? 'not measured on this line'
        : `${figure(sidecar.corePercent, 3)}% (${sidecar.cpuMs} ms in ${sidecar.seconds} s)` +
          (stack === null ? '' : `; context: the stack's ${figure(stack.corePercent, 3)}%`),
    met: sidecar === null ? null : sidecar.corePercent <= limits.maxIdleCorePercent,
  };
  return [wakeups, cpu];
}

/** From exec to ready, against a bare Node HTTP server's first answer, round by round. */
function readyVerdict(ready: NonNullable<OtherRows['ready']>, limits: TargetLimits, line: number): TargetVerdict {
  const sidecar = ready[rowOf('sidecar', line)] ?? [];
  const bare = ready[`bare-node@${line}`] ?? [];
  const ratios = sidecar.slice(0, bare.length).map((m, i) => m.ms / bare[i]!.ms);
  const target = `start to ready ≤ ${limits.maxReadyOverBare} × a bare Node server's first answer`;
  if (ratios.length === 0) return { target, measured: 'not measured on this line', met: null };
  const ms = (rows: readonly ReadyMeasurement[], f: (m: ReadyMeasurement) => number): string =>
    figure(median(rows.map(f)), 0);
  return {
    target,
    measured:
      `× ${spread(ratios, 2)}; ${ms(sidecar, (m) => m.ms)} against ${ms(bare, (m) => m.ms)} ms; CPU until ready ` +
      `${ms(sidecar, (m) => m.cpuMs)} against ${ms(bare, (m) => m.cpuMs)} ms`,
    met: median(ratios) <= limits.maxReadyOverBare,
  };
}

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

/** The verdict's last column. */
const verdictWord = (v: TargetVerdict): string =>
  v.reportedOnly ? 'reported' : v.met === null ? 'cannot tell' : v.met ? 'yes' : 'no';

export function formatTargets(verdicts: TargetVerdict[], node: string, indicativeOnly: boolean): string {
  const lines = [
    '',
    `Performance targets on Node ${node} (GET, the sidecar as ` +
      `shipped)${indicativeOnly ? ': indicative only, from one short round' : ''}`,
    '| target | this run | met? |',
    '|---|---|---|',
    ...verdicts.map((v) => `| ${v.target} | ${v.measured} | ${verdictWord(v)} |`),
  ];
  return `${lines.join('\n')}\n`;
}
