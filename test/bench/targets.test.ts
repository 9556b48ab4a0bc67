// The verdicts `npm run bench` prints against the performance targets, from a run's rounds: each says the
// run's figure, its spread over rounds, and met, missed, or cannot tell when a compared row is absent.
import test from 'ava';
import type { Measurement, Rounds } from '../../bench/measurement.js';
import { checkTargets, formatTargets, ISSUE_5_TARGETS, type TargetVerdict } from '../../bench/targets.js';

const limits = { ...ISSUE_5_TARGETS, maxUpstreamSockets: 64 };

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

/** A run of three rounds in which the sidecar meets every target. */
function goodRun(): Rounds {
  return {
    'GET, concurrency 1': {
      direct: [
        round({ p50Ms: 0.05, cpuUsPerRequest: null, rssMb: null, newUpstreamSockets: null, peakUpstreamSockets: null }),
        round({ p50Ms: 0.06 }),
        round({ p50Ms: 0.05 }),
      ],
      sidecar: [
        round({ p50Ms: 0.3, newUpstreamSockets: 1, peakUpstreamSockets: 1 }),
        round({ p50Ms: 0.33 }),
        round({ p50Ms: 0.29 }),
      ],
    },
    'GET, concurrency 32': {
      sidecar: [
        round({ cpuUsPerRequest: 180 }),
        round({ cpuUsPerRequest: 195 }),
        round({ cpuUsPerRequest: 230, rps: 3500 }),
      ],
      nginx: [
        round({ rps: 12_000, cpuUsPerRequest: 40 }),
        round({ rps: 12_500, cpuUsPerRequest: 40 }),
        round({ rps: 12_000, cpuUsPerRequest: 42 }),
      ],
      'plain-node': [round({ cpuUsPerRequest: 120 }), round({ cpuUsPerRequest: 130 }), round({ cpuUsPerRequest: 150 })],
    },
  };
}

const verdict = (verdicts: TargetVerdict[], starts: string): TargetVerdict => {
  const found = verdicts.find((v) => v.target.startsWith(starts));
  if (!found) throw new Error(`no verdict for ${starts}`);
  return found;
};

test('a run that meets every target says so, with each figure as the median and its spread over rounds', (t) => {
  const verdicts = checkTargets(goodRun(), limits);
  t.deepEqual(
    verdicts.map((v) => v.met),
    [true, true, true, true, true, true],
  );
  t.is(verdict(verdicts, 'CPU').measured, "195 µs (rounds 180-230); the plain-node row's × 1.50 (rounds 1.50-1.53)");
  t.is(
    verdict(verdicts, 'throughput').measured,
    '32.0% (rounds 29.2-33.3); by CPU per request (capacity on one core) 20.5% (rounds 18.3-22.2)',
  );
  t.is(verdict(verdicts, 'added p50').measured, '+0.250 ms (rounds 0.240-0.270)');
  t.is(verdict(verdicts, 'RSS').measured, 'at most 76 MB in any round (growth: npm run soak)');
});

test('a median above a limit is a missed target, though single rounds met it', (t) => {
  const run = goodRun();
  run['GET, concurrency 32']!.sidecar = [
    round({ cpuUsPerRequest: 190, rps: 3000 }),
    round({ cpuUsPerRequest: 240, rps: 3000 }),
    round({ cpuUsPerRequest: 260, rps: 4000 }),
  ];
  run['GET, concurrency 1']!.sidecar![2] = round({ p50Ms: 0.5, rssMb: 81 });
  const verdicts = checkTargets(run, limits);
  t.false(verdict(verdicts, 'CPU').met);
  t.false(verdict(verdicts, 'throughput').met);
  t.true(verdict(verdicts, 'added p50').met, 'two of three rounds added 0.29 ms or less');
  t.false(verdict(verdicts, 'RSS').met);
});

test('errors, too many upstream sockets open, or a socket per request miss their targets', (t) => {
  const errors = goodRun();
  errors['GET, concurrency 32']!.sidecar![1] = round({ errors: 2 });
  t.deepEqual(verdict(checkTargets(errors, limits), 'zero errors'), {
    target: 'zero errors in every scenario',
    measured: '2 through the sidecar',
    met: false,
  });

  const unbounded = goodRun();
  unbounded['GET, concurrency 32']!.sidecar![0] = round({ peakUpstreamSockets: 65 });
  t.false(verdict(checkTargets(unbounded, limits), 'upstream sockets').met);

  const notReused = goodRun();
  notReused['GET, concurrency 1']!.sidecar = [
    round({ requests: 3000, newUpstreamSockets: 1000, peakUpstreamSockets: 1 }),
  ];
  const sockets = verdict(checkTargets(notReused, limits), 'upstream sockets');
  t.false(sockets.met);
  t.is(
    sockets.measured,
    'at most 32 open at once; each new socket carried 3 requests or more (fewest: GET, concurrency 1)',
  );
});

test('without an nginx or plain-node row the run cannot tell the throughput share, and leaves the ratio out', (t) => {
  const run = goodRun();
  delete run['GET, concurrency 32']!.nginx;
  delete run['GET, concurrency 32']!['plain-node'];
  const verdicts = checkTargets(run, limits);
  t.deepEqual(verdict(verdicts, 'throughput'), {
    target: "throughput at concurrency 32 ≥ 30% of nginx's",
    measured: 'no nginx row',
    met: null,
  });
  t.is(verdict(verdicts, 'CPU').measured, '195 µs (rounds 180-230)');
  t.regex(formatTargets(verdicts, true), /indicative only[\s\S]*\| no nginx row \| cannot tell \|/);
});
