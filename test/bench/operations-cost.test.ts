// The verdict on what limiting operations costs: a ratio within the rounds' own scatter is noise, one
// beyond it is a cost, and too few rounds cannot tell.
import test from 'ava';
import type { Measurement, Rounds } from '../../bench/measurement.js';
import { formatOperationsCost, operationsCost } from '../../bench/operations-cost.js';

const run = (cpuUsPerRequest: number, rps: number): Measurement => ({
  requests: rps * 6,
  rps,
  p50Ms: 1,
  p99Ms: 2,
  p999Ms: 3,
  errors: 0,
  errorKinds: { socket: 0, timeout: 0, status: 0 },
  cpuUsPerRequest,
  rssMb: 80,
  anonymousMb: 30,
  newUpstreamSockets: 5,
  peakUpstreamSockets: 1,
});

const rounds = (sidecar: [number, number][], limited: [number, number][]): Rounds => ({
  'GET, concurrency 32': {
    'sidecar@24': sidecar.map(([cpu, rps]) => run(cpu, rps)),
    'sidecar+operations@24': limited.map(([cpu, rps]) => run(cpu, rps)),
  },
});

const SIDECAR: [number, number][] = [
  [170, 5800],
  [180, 5600],
  [165, 5900],
  [175, 5700],
  [172, 5750],
];

test('a difference inside the rounds scatter is noise', (t) => {
  const limited = SIDECAR.map(([cpu, rps]): [number, number] => [cpu * 1.01, rps * 0.995]);
  const [cost] = operationsCost(rounds(SIDECAR, limited), 24);
  t.is(cost!.withinNoise, true);
  t.true(cost!.noise! > 0.01 && cost!.noise! < 0.05, String(cost!.noise));
  t.regex(
    formatOperationsCost([cost!], 'v24.0.0'),
    /\| GET, concurrency 32 \| × 1\.010 \| × 0\.995 \| ±\d\.\d% \| yes \|/,
  );
});

test('a CPU cost beyond the scatter is told as one', (t) => {
  const limited = SIDECAR.map(([cpu, rps]): [number, number] => [cpu * 1.2, rps]);
  t.is(operationsCost(rounds(SIDECAR, limited), 24)[0]!.withinNoise, false);
});

test('one or two rounds cannot show a scatter, and the row only shows on the line it ran', (t) => {
  const [cost] = operationsCost(rounds(SIDECAR.slice(0, 2), SIDECAR.slice(0, 2)), 24);
  t.is(cost!.withinNoise, null);
  t.regex(formatOperationsCost([cost!], 'v24.0.0'), /\| - \| cannot tell \|/);
  t.deepEqual(operationsCost(rounds(SIDECAR, SIDECAR), 22), []);
  t.is(formatOperationsCost([], 'v24.0.0'), '');
});
