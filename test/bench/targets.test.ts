// The verdicts `npm run bench` prints against the performance targets on one Node line, from a run's
// rounds: each says the run's figure, its spread over rounds, and met, missed, or cannot tell when a
// compared row is absent.
import test from 'ava';
import type { Measurement, Rounds } from '../../bench/measurement.js';
import { checkTargets, formatTargets, PER_POD_TARGETS, type TargetVerdict } from '../../bench/targets.js';

const limits = { ...PER_POD_TARGETS, maxUpstreamSockets: 64 };

const round = (overrides: Partial<Measurement>): Measurement => ({
  requests: 40_000,
  rps: 4000,
  p50Ms: 0.3,
  p99Ms: 1,
  p999Ms: 2,
  errors: 0,
  errorKinds: { socket: 0, timeout: 0, status: 0 },
  cpuUsPerRequest: 190,
  rssMb: 76,
  newUpstreamSockets: 32,
  peakUpstreamSockets: 32,
  ...overrides,
});

const direct = (p50Ms: number): Measurement =>
  round({ p50Ms, cpuUsPerRequest: null, rssMb: null, newUpstreamSockets: null, peakUpstreamSockets: null });

/** A run of three rounds in which the sidecar on Node 24 meets every target; Node 22's rows are far worse. */
function goodRun(): Rounds {
  return {
    'GET, concurrency 1': {
      direct: [direct(0.05), direct(0.06), direct(0.05)],
      'sidecar@24': [
        round({ p50Ms: 0.15, newUpstreamSockets: 1, peakUpstreamSockets: 1, rssMb: 75 }),
        round({ p50Ms: 0.18, rssMb: 76 }),
        round({ p50Ms: 0.14, rssMb: 74 }),
      ],
      'plain-node@24': [round({ rssMb: 72 }), round({ rssMb: 71 }), round({ rssMb: 73 })],
      'sidecar@22': [round({ p50Ms: 0.5 }), round({ p50Ms: 0.5 }), round({ p50Ms: 0.5 })],
    },
    'GET, concurrency 32': {
      'sidecar@24': [round({ rps: 5000 }), round({ rps: 5100 }), round({ rps: 4000 })],
      nginx: [
        round({ rps: 12_000, cpuUsPerRequest: 40 }),
        round({ rps: 12_500, cpuUsPerRequest: 40 }),
        round({ rps: 12_000, cpuUsPerRequest: 42 }),
      ],
      'sidecar@22': [round({ rps: 1000 }), round({ rps: 1000 }), round({ rps: 1000 })],
    },
    'GET at a fixed 1000 requests/s': {
      'sidecar@24': [
        round({ cpuUsPerRequest: 250, rssMb: 80 }),
        round({ cpuUsPerRequest: 260, rssMb: 81 }),
        round({ cpuUsPerRequest: 300, rssMb: 79 }),
      ],
      'plain-node@24': [
        round({ cpuUsPerRequest: 200, rssMb: 76 }),
        round({ cpuUsPerRequest: 210, rssMb: 77 }),
        round({ cpuUsPerRequest: 240, rssMb: 75 }),
      ],
      'sidecar@22': [round({ cpuUsPerRequest: 900 }), round({ cpuUsPerRequest: 900 }), round({ cpuUsPerRequest: 900 })],
      'plain-node@22': [
        round({ cpuUsPerRequest: 200 }),
        round({ cpuUsPerRequest: 200 }),
        round({ cpuUsPerRequest: 200 }),
      ],
    },
  };
}

const verdict = (verdicts: TargetVerdict[], starts: string): TargetVerdict => {
  const found = verdicts.find((v) => v.target.startsWith(starts));
  if (!found) throw new Error(`no verdict for ${starts}`);
  return found;
};

test('a line that meets every target says so, each figure the median of per-round values and its spread', (t) => {
  const verdicts = checkTargets(goodRun(), limits, 24);
  t.deepEqual(
    verdicts.map((v) => v.met),
    [true, true, true, true, true, true],
  );
  t.is(verdict(verdicts, 'CPU').measured, '× 1.25 (rounds 1.24-1.25); 260 µs against 210 µs');
  t.is(
    verdict(verdicts, 'RSS').measured,
    '+4.0 MB at most (GET at a fixed 1000 requests/s; rounds +4.0 to +4.0); 81 MB the most in any round',
  );
  t.is(
    verdict(verdicts, 'throughput').measured,
    '40.8% (rounds 33.3-41.7); by CPU per request (capacity on one core) 21.1% (rounds 21.1-22.1)',
  );
  t.is(verdict(verdicts, 'added p50').measured, '+0.100 ms (rounds 0.090-0.120)');
});

test("each line is judged on its own rows: Node 22's misses do not touch Node 24's verdicts", (t) => {
  const verdicts = checkTargets(goodRun(), limits, 22);
  t.false(verdict(verdicts, 'CPU').met);
  t.is(verdict(verdicts, 'CPU').measured, '× 4.50 (rounds 4.50-4.50); 900 µs against 200 µs');
  t.false(verdict(verdicts, 'throughput').met);
  t.false(verdict(verdicts, 'added p50').met);
  t.is(verdict(verdicts, 'RSS').measured.split(' ')[0], '+0.0', 'the same RSS as plain-node@22 where both ran');
});

test('a median above a limit is a missed target, though single rounds met it', (t) => {
  const run = goodRun();
  run['GET at a fixed 1000 requests/s']!['sidecar@24'] = [
    round({ cpuUsPerRequest: 250, rssMb: 86 }),
    round({ cpuUsPerRequest: 300, rssMb: 86 }),
    round({ cpuUsPerRequest: 320, rssMb: 78 }),
  ];
  run['GET, concurrency 1']!['sidecar@24']![1] = round({ p50Ms: 0.5 });
  const verdicts = checkTargets(run, limits, 24);
  t.false(verdict(verdicts, 'CPU').met, 'rounds of 1.19, 1.43 and 1.33');
  t.false(verdict(verdicts, 'RSS').met, 'rounds of +10, +9 and +3 MB');
  t.true(verdict(verdicts, 'added p50').met, 'two of three rounds added 0.1 ms or less');
});

test('errors, too many upstream sockets open, or a socket per request miss their targets', (t) => {
  const errors = goodRun();
  errors['GET, concurrency 32']!['sidecar@24']![1] = round({ errors: 2 });
  t.deepEqual(verdict(checkTargets(errors, limits, 24), 'zero errors'), {
    target: 'zero errors in every scenario',
    measured: '2 through the sidecar',
    met: false,
  });

  const unbounded = goodRun();
  unbounded['GET, concurrency 32']!['sidecar@24']![0] = round({ peakUpstreamSockets: 65 });
  t.false(verdict(checkTargets(unbounded, limits, 24), 'upstream sockets').met);

  const notReused = goodRun();
  notReused['GET, concurrency 1']!['sidecar@24'] = [
    round({ requests: 3000, newUpstreamSockets: 1000, peakUpstreamSockets: 1 }),
  ];
  const sockets = verdict(checkTargets(notReused, limits, 24), 'upstream sockets');
  t.false(sockets.met);
  t.is(
    sockets.measured,
    'at most 32 open at once; each new socket carried 3 requests or more (fewest: GET, concurrency 1)',
  );
});

test('without nginx or plain-node rows the run cannot tell the share, the CPU ratio or the RSS over the floor', (t) => {
  const run = goodRun();
  delete run['GET, concurrency 32']!.nginx;
  for (const byRow of Object.values(run)) delete byRow['plain-node@24'];
  const verdicts = checkTargets(run, limits, 24);
  t.deepEqual(verdict(verdicts, 'throughput'), {
    target: "throughput at concurrency 32 ≥ 40% of nginx's",
    measured: 'no nginx row',
    met: null,
  });
  t.deepEqual(verdict(verdicts, 'CPU').measured, 'no plain-node row');
  t.is(verdict(verdicts, 'RSS').met, null);
  t.regex(
    formatTargets(verdicts, 'v24.0.0', true),
    /Node v24\.0\.0[\s\S]*indicative only[\s\S]*\| no nginx row \| cannot tell \|/,
  );
});

test('with a stack row on the line, each cost verdict also gives what hono and http-proxy alone measured', (t) => {
  const run = goodRun();
  run['GET, concurrency 1']!['stack@24'] = [
    round({ p50Ms: 0.11, rssMb: 74 }),
    round({ p50Ms: 0.12, rssMb: 75 }),
    round({ p50Ms: 0.1, rssMb: 74 }),
  ];
  run['GET, concurrency 32']!['stack@24'] = [round({ rps: 6000 }), round({ rps: 6250 }), round({ rps: 4800 })];
  run['GET at a fixed 1000 requests/s']!['stack@24'] = [
    round({ cpuUsPerRequest: 240, rssMb: 78 }),
    round({ cpuUsPerRequest: 231, rssMb: 78 }),
    round({ cpuUsPerRequest: 264, rssMb: 77 }),
  ];
  const verdicts = checkTargets(run, limits, 24);
  t.regex(verdict(verdicts, 'CPU').measured, /; hono and http-proxy alone \(stack\): × 1\.10$/);
  t.regex(
    verdict(verdicts, 'RSS').measured,
    /; hono and http-proxy alone \(stack\): \+2\.0 MB at most \(GET, concurrency 1\)$/,
  );
  t.regex(verdict(verdicts, 'throughput').measured, /; hono and http-proxy alone \(stack\): 50\.0%$/);
  t.regex(verdict(verdicts, 'added p50').measured, /; hono and http-proxy alone \(stack\): \+0\.060 ms$/);
  t.deepEqual(
    verdicts.map((v) => v.met),
    [true, true, true, true, true, true],
    "the stack's figures are told, never judged",
  );
  t.notRegex(verdict(checkTargets(run, limits, 22), 'CPU').measured, /stack/, 'Node 22 has no stack row');
});

test("with an nginx row at concurrency 1, the latency verdict also gives nginx's own added p50, never judged", (t) => {
  const run = goodRun();
  run['GET, concurrency 1']!.nginx = [
    round({ p50Ms: 0.25, cpuUsPerRequest: 70 }),
    round({ p50Ms: 0.2, cpuUsPerRequest: 70 }),
    round({ p50Ms: 0.23, cpuUsPerRequest: 70 }),
  ];
  const verdicts = checkTargets(run, limits, 24);
  // Round by round against direct (0.05, 0.06, 0.05): +0.20, +0.14, +0.18.
  t.regex(verdict(verdicts, 'added p50').measured, /; nginx: \+0\.180 ms$/);
  t.true(verdict(verdicts, 'added p50').met, 'nginx missing the limit does not change the sidecar verdict');
  t.notRegex(verdict(checkTargets(goodRun(), limits, 24), 'added p50').measured, /nginx/, 'no nginx row at c1');
});
