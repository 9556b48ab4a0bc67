// What limiting a profile's operations costs: the `sidecar+operations` row against the sidecar on the
// same Node line, scenario by scenario, as the median of the within-round ratios of CPU per request and
// of throughput. A ratio is within the run's noise when its distance from 1 is no more than the rounds'
// own scatter: the median relative deviation of either row's figure from its median.
import { ratiosByRound } from './bench-report.js';
import { median, rowOf, type Measurement, type Rounds } from './measurement.js';

export interface OperationsCost {
  readonly scenario: string;
  readonly cpuRatio: number;
  readonly throughputRatio: number;
  /** The rounds' scatter, a share (0.03 for 3%); null from fewer than three rounds, which cannot show one. */
  readonly noise: number | null;
  readonly withinNoise: boolean | null;
}

/** The median relative deviation of a row's figure from its median over the rounds. */
function scatter(runs: readonly Measurement[], f: (m: Measurement) => number | null): number {
  const values = runs.map(f).filter((v): v is number => v !== null);
  const middle = median(values);
  return middle === 0 ? 0 : median(values.map((v) => Math.abs(v / middle - 1)));
}

export function operationsCost(rounds: Rounds, line: number): OperationsCost[] {
  const sidecar = rowOf('sidecar', line);
  const limited = rowOf('sidecar+operations', line);
  const costs: OperationsCost[] = [];
  for (const [scenario, byRow] of Object.entries(rounds)) {
    const cpu = ratiosByRound(byRow, limited, sidecar, (m) => m.cpuUsPerRequest);
    const rps = ratiosByRound(byRow, limited, sidecar, (m) => m.rps);
    if (cpu.length === 0 || rps.length === 0) continue;
    const cpuRatio = median(cpu);
    const throughputRatio = median(rps);
    if (cpu.length < 3) {
      costs.push({ scenario, cpuRatio, throughputRatio, noise: null, withinNoise: null });
      continue;
    }
    const noise = Math.max(
      ...[sidecar, limited].flatMap((row) => [
        scatter(byRow[row] ?? [], (m) => m.cpuUsPerRequest),
        scatter(byRow[row] ?? [], (m) => m.rps),
      ]),
    );
    costs.push({
      scenario,
      cpuRatio,
      throughputRatio,
      noise,
      withinNoise: Math.abs(cpuRatio - 1) <= noise && Math.abs(throughputRatio - 1) <= noise,
    });
  }
  return costs;
}

export function formatOperationsCost(costs: readonly OperationsCost[], node: string): string {
  if (costs.length === 0) return '';
  const lines = [
    '',
    `The cost of operations (sidecar+operations over the sidecar, Node ${node}; medians of within-round ratios)`,
    '| scenario | CPU per request | throughput | rounds scatter | within noise? |',
    '|---|---|---|---|---|',
    ...costs.map(
      (c) =>
        `| ${c.scenario} | × ${c.cpuRatio.toFixed(3)} | × ${c.throughputRatio.toFixed(3)} | ` +
        `${c.noise === null ? '-' : `±${(c.noise * 100).toFixed(1)}%`} | ` +
        `${c.withinNoise === null ? 'cannot tell' : c.withinNoise ? 'yes' : 'no'} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
