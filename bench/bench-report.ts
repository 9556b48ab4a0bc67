// Turns a benchmark run's rounds into its summary (medians per row, ratios taken within each round)
// and the tables `npm run bench` prints.
import { errorCount } from './round-problems.js';
import { median, rowOf, type Measurement, type NodeProxy, type Rounds, type RowName } from './measurement.js';

/** One Node line's ratios in one scenario, each the median of its per-round values. */
export interface LineRatios {
  throughputSidecarOverDirect: number | null;
  throughputSidecarOverNginx: number | null;
  cpuSidecarOverNginx: number | null;
  throughputSidecarOverPlainNode: number | null;
  cpuSidecarOverPlainNode: number | null;
  rssMbOverPlainNode: number | null;
  addedP50MsOverDirect: number | null;
  throughputSidecarOverStack: number | null;
  cpuSidecarOverStack: number | null;
  anonymousMbOverStack: number | null;
  p50MsOverStack: number | null;
}

/** By scenario: each row's medians, and each Node line's ratios (by major version). */
export type Summary = Record<
  string,
  { rows: Partial<Record<RowName, Measurement>>; ratios: Record<string, LineRatios> }
>;

export interface RunDescription {
  readonly cores: number;
  readonly cpuModel: string;
  /** The Node lines the proxies ran on (`--node`): the first is the image's, whose figures lead. */
  readonly nodes: readonly { readonly line: number; readonly version: string }[];
  /** The Node that ran the bench, its upstream and its load generator. */
  readonly benchNode: string;
  readonly sidecarNodeOptions: string;
  /** Node flags before the script, from the Dockerfile's CMD. */
  readonly sidecarNodeFlags: readonly string[];
  readonly loadGenerator: string;
  readonly rounds: number;
  readonly secondsPerRun: number;
}

type ByRow = Partial<Record<RowName, Measurement[]>>;

/**
 * Row a's figure set against row b's within each round (rows of one round ran back to back, so a slow
 * spell of the machine weighs on both): the per-round values, rounds where either side is missing or
 * `combine` gives null left out.
 */
function withinRounds(
  byRow: ByRow,
  a: RowName,
  b: RowName,
  f: (m: Measurement) => number | null,
  combine: (x: number, y: number) => number | null,
): number[] {
  const as = byRow[a] ?? [];
  const bs = byRow[b] ?? [];
  const values: number[] = [];
  for (let i = 0; i < Math.min(as.length, bs.length); i += 1) {
    const x = f(as[i]!);
    const y = f(bs[i]!);
    const value = x === null || y === null ? null : combine(x, y);
    if (value !== null) values.push(value);
  }
  return values;
}

/** Row a's figure over row b's, round by round. */
export const ratiosByRound = (byRow: ByRow, a: RowName, b: RowName, f: (m: Measurement) => number | null): number[] =>
  withinRounds(byRow, a, b, f, (x, y) => (y === 0 ? null : x / y));

/** Row a's figure minus row b's, round by round. */
export const differencesByRound = (
  byRow: ByRow,
  a: RowName,
  b: RowName,
  f: (m: Measurement) => number | null,
): number[] => withinRounds(byRow, a, b, f, (x, y) => x - y);

/** A Node proxy's p50 on a Node line (the sidecar's unless named) minus the direct row's, round by round. */
export function addedP50ByRound(byRow: ByRow, line: number, proxy: NodeProxy = 'sidecar'): number[] {
  return differencesByRound(byRow, rowOf(proxy, line), 'direct', (m) => m.p50Ms);
}

/** A Node proxy's RSS (the sidecar's unless named) minus plain-node's on the same line, round by round. */
export function addedRssByRound(byRow: ByRow, line: number, proxy: NodeProxy = 'sidecar'): number[] {
  return differencesByRound(byRow, rowOf(proxy, line), rowOf('plain-node', line), (m) => m.rssMb);
}

const rounded = (value: number): number => Math.round(value * 1000) / 1000;

export function summarise(rounds: Rounds, rows: RowName[], lines: readonly number[]): Summary {
  const summary: Summary = {};
  for (const [scenario, byRow] of Object.entries(rounds)) {
    const merged: Partial<Record<RowName, Measurement>> = {};
    for (const row of rows) {
      const runs = byRow[row] ?? [];
      const pick = (f: (m: Measurement) => number | null): number | null =>
        runs.some((m) => f(m) === null) ? null : median(runs.map((m) => f(m)!));
      const total = (f: (m: Measurement) => number): number => runs.reduce((sum, m) => sum + f(m), 0);
      const most = (f: (m: Measurement) => number | null): number | null =>
        runs.some((m) => f(m) === null) ? null : Math.max(...runs.map((m) => f(m)!));
      const errorKinds = {
        socket: total((m) => m.errorKinds.socket),
        timeout: total((m) => m.errorKinds.timeout),
        status: total((m) => m.errorKinds.status),
      };
      merged[row] = {
        requests: total((m) => m.requests),
        rps: pick((m) => m.rps)!,
        p50Ms: pick((m) => m.p50Ms)!,
        p99Ms: pick((m) => m.p99Ms)!,
        p999Ms: pick((m) => m.p999Ms)!,
        errors: errorCount(errorKinds),
        errorKinds,
        cpuUsPerRequest: pick((m) => m.cpuUsPerRequest),
        rssMb: most((m) => m.rssMb),
        anonymousMb: most((m) => m.anonymousMb),
        newUpstreamSockets: runs.some((m) => m.newUpstreamSockets === null)
          ? null
          : total((m) => m.newUpstreamSockets!),
        peakUpstreamSockets: most((m) => m.peakUpstreamSockets),
      };
    }
    const ratio = (a: RowName, b: RowName, f: (m: Measurement) => number | null): number | null => {
      const values = ratiosByRound(byRow, a, b, f);
      return values.length > 0 ? rounded(median(values)) : null;
    };
    const medianOf = (values: number[]): number | null => (values.length > 0 ? rounded(median(values)) : null);
    const ratios: Record<string, LineRatios> = {};
    for (const line of lines) {
      const sidecar = rowOf('sidecar', line);
      const plain = rowOf('plain-node', line);
      const stack = rowOf('stack', line);
      ratios[line] = {
        throughputSidecarOverDirect: ratio(sidecar, 'direct', (m) => m.rps),
        throughputSidecarOverNginx: ratio(sidecar, 'nginx', (m) => m.rps),
        cpuSidecarOverNginx: ratio(sidecar, 'nginx', (m) => m.cpuUsPerRequest),
        throughputSidecarOverPlainNode: ratio(sidecar, plain, (m) => m.rps),
        cpuSidecarOverPlainNode: ratio(sidecar, plain, (m) => m.cpuUsPerRequest),
        rssMbOverPlainNode: medianOf(addedRssByRound(byRow, line)),
        addedP50MsOverDirect: medianOf(addedP50ByRound(byRow, line)),
        throughputSidecarOverStack: ratio(sidecar, stack, (m) => m.rps),
        cpuSidecarOverStack: ratio(sidecar, stack, (m) => m.cpuUsPerRequest),
        anonymousMbOverStack: medianOf(differencesByRound(byRow, sidecar, stack, (m) => m.anonymousMb)),
        p50MsOverStack: medianOf(differencesByRound(byRow, sidecar, stack, (m) => m.p50Ms)),
      };
    }
    summary[scenario] = { rows: merged, ratios };
  }
  return summary;
}

export function formatReport(report: RunDescription, summary: Summary): string {
  const nodes = report.nodes.map((n) => n.version).join(', ');
  const lines = [
    `sfd-sidecar benchmark: ${report.cores} cores (${report.cpuModel}), the Node proxies on ${nodes} ` +
      `(${report.benchNode} for the upstream and load), ${report.loadGenerator}, ${report.rounds} round(s) of ` +
      `${report.secondsPerRun} s per row`,
    `proxies pinned to core 0; upstream and load generator to core 1; sidecar ` +
      `NODE_OPTIONS="${report.sidecarNodeOptions}" and flags "${report.sidecarNodeFlags.join(' ')}" ` +
      '(from the Dockerfile)',
  ];
  for (const [scenario, { rows, ratios }] of Object.entries(summary)) {
    lines.push(
      '',
      `${scenario}`,
      '| row | req/s | p50 ms | p99 ms | p99.9 ms | CPU µs/req | Anonymous MB | RSS MB | errors | new upstream ' +
        'sockets | most upstream sockets open |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const [row, m] of Object.entries(rows)) {
      if (!m) continue;
      lines.push(
        `| ${row} | ${m.rps} | ${m.p50Ms.toFixed(3)} | ${m.p99Ms.toFixed(3)} | ${m.p999Ms.toFixed(3)} | ` +
          `${m.cpuUsPerRequest ?? '-'} | ${m.anonymousMb ?? '-'} | ${m.rssMb ?? '-'} | ${m.errors} | ` +
          `${m.newUpstreamSockets ?? '-'} | ${m.peakUpstreamSockets ?? '-'} |`,
      );
    }
    for (const [line, r] of Object.entries(ratios)) {
      const stack =
        r.cpuSidecarOverStack === null
          ? ''
          : `; over the stack: throughput ${r.throughputSidecarOverStack ?? '-'}, CPU per request ` +
            `${r.cpuSidecarOverStack}, p50 ${r.p50MsOverStack ?? '-'} ms, Anonymous ` +
            `${r.anonymousMbOverStack ?? '-'} MB`;
      const plain =
        r.cpuSidecarOverPlainNode === null
          ? ''
          : `; over plain-node: throughput ${r.throughputSidecarOverPlainNode ?? '-'}, CPU per request ` +
            `${r.cpuSidecarOverPlainNode}, RSS +${r.rssMbOverPlainNode ?? '-'} MB`;
      lines.push(
        `Node ${line}: sidecar/direct throughput ${r.throughputSidecarOverDirect ?? '-'}, sidecar/nginx ` +
          `throughput ${r.throughputSidecarOverNginx ?? '-'}, CPU per request ${r.cpuSidecarOverNginx ?? '-'}, ` +
          `added p50 over direct ${r.addedP50MsOverDirect ?? '-'} ms${stack}${plain}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
