// The verdicts `npm run bench` prints against the performance targets on one Node line, from a run's
// rounds: each holds the sidecar to the `stack` row on its line (hono's adapter and http-proxy alone),
// says the run's figure, its spread over rounds, the context rows' figures, and met, missed, or cannot
// tell when the stack row is absent.
import test from 'ava';
import type { Measurement, Rounds } from '../../bench/measurement.js';
import {
  checkTargets,
  formatTargets,
  PER_POD_TARGETS,
  type OtherRows,
  type TargetVerdict,
} from '../../bench/targets.js';

// Three rounds judge the tails here, as nine do in a full run.
const limits = { ...PER_POD_TARGETS, maxUpstreamSockets: 64, minTailRounds: 3 };

const idleRow = (wakeupsPerSecond: number, cpuMs: number) => ({
  seconds: 60,
  cpuMs,
  corePercent: (cpuMs / 60_000) * 100,
  wakeupsPerSecond,
  requests: 20,
  failed: 0,
  rssMb: 80,
  anonymousMb: 30,
});

/** Idle and start-up figures that meet their targets on Node 24. */
const goodOther = (): OtherRows => ({
  idle: { 'sidecar@24': idleRow(1.5, 40), 'stack@24': idleRow(0.5, 30) },
  ready: {
    'bare-node@24': [
      { ms: 90, cpuMs: 40 },
      { ms: 100, cpuMs: 45 },
      { ms: 95, cpuMs: 42 },
    ],
    'sidecar@24': [
      { ms: 170, cpuMs: 150 },
      { ms: 210, cpuMs: 160 },
      { ms: 180, cpuMs: 155 },
    ],
  },
});

const round = (overrides: Partial<Measurement>): Measurement => ({
  requests: 40_000,
  rps: 4000,
  p50Ms: 0.3,
  p99Ms: 1,
  p999Ms: 2,
  errors: 0,
  errorKinds: { socket: 0, timeout: 0, status: 0 },
  cpuUsPerRequest: 190,
  rssMb: 80,
  anonymousMb: 40,
  newUpstreamSockets: 32,
  peakUpstreamSockets: 32,
  ...overrides,
});

const direct = (p50Ms: number): Measurement =>
  round({
    p50Ms,
    cpuUsPerRequest: null,
    rssMb: null,
    anonymousMb: null,
    newUpstreamSockets: null,
    peakUpstreamSockets: null,
  });

const stackRound = (overrides: Partial<Measurement>): Measurement =>
  round({ anonymousMb: 38, rssMb: 77, ...overrides });

/** A run of three rounds in which the sidecar on Node 24 meets every target; Node 22's sidecar is far worse. */
function goodRun(): Rounds {
  return {
    'GET, concurrency 1': {
      direct: [direct(0.05), direct(0.06), direct(0.05)],
      'sidecar@24': [
        round({ p50Ms: 0.32, newUpstreamSockets: 1, peakUpstreamSockets: 1, anonymousMb: 40 }),
        round({ p50Ms: 0.35, anonymousMb: 41 }),
        round({ p50Ms: 0.31, anonymousMb: 40 }),
      ],
      'stack@24': [stackRound({ p50Ms: 0.31 }), stackRound({ p50Ms: 0.34 }), stackRound({ p50Ms: 0.3 })],
      'sidecar@22': [
        round({ p50Ms: 0.5, anonymousMb: 60 }),
        round({ p50Ms: 0.5, anonymousMb: 60 }),
        round({ p50Ms: 0.5, anonymousMb: 41 }),
      ],
      'stack@22': [stackRound({ p50Ms: 0.3 }), stackRound({ p50Ms: 0.3 }), stackRound({ p50Ms: 0.3 })],
    },
    'GET, concurrency 32': {
      'sidecar@24': [round({ rps: 5000 }), round({ rps: 5100 }), round({ rps: 4000 })],
      'stack@24': [stackRound({ rps: 5400 }), stackRound({ rps: 5500 }), stackRound({ rps: 4500 })],
      nginx: [round({ rps: 12_000 }), round({ rps: 12_500 }), round({ rps: 12_000 })],
      'sidecar@22': [round({ rps: 1000 }), round({ rps: 1000 }), round({ rps: 1000 })],
      'stack@22': [stackRound({ rps: 5000 }), stackRound({ rps: 5000 }), stackRound({ rps: 5000 })],
    },
    'POST 1 KiB, concurrency 32': {
      'sidecar@24': [round({ rps: 4500 }), round({ rps: 4600 }), round({ rps: 4400 })],
      'stack@24': [stackRound({ rps: 4900 }), stackRound({ rps: 5000 }), stackRound({ rps: 4800 })],
    },
    'GET at a fixed 1000 requests/s': {
      'sidecar@24': [round({ cpuUsPerRequest: 250 }), round({ cpuUsPerRequest: 260 }), round({ cpuUsPerRequest: 300 })],
      'stack@24': [
        stackRound({ cpuUsPerRequest: 230 }),
        stackRound({ cpuUsPerRequest: 240 }),
        stackRound({ cpuUsPerRequest: 280 }),
      ],
      'plain-node@24': [
        round({ cpuUsPerRequest: 200 }),
        round({ cpuUsPerRequest: 210 }),
        round({ cpuUsPerRequest: 240 }),
      ],
      'sidecar@22': [round({ cpuUsPerRequest: 900 }), round({ cpuUsPerRequest: 900 }), round({ cpuUsPerRequest: 900 })],
      'stack@22': [
        stackRound({ cpuUsPerRequest: 200 }),
        stackRound({ cpuUsPerRequest: 200 }),
        stackRound({ cpuUsPerRequest: 200 }),
      ],
    },
  };
}

const verdict = (verdicts: TargetVerdict[], starts: string): TargetVerdict => {
  const found = verdicts.find((v) => v.target.startsWith(starts));
  if (!found) throw new Error(`no verdict for ${starts}`);
  return found;
};

test('a line that meets every target says so, each figure the median of per-round values against the stack', (t) => {
  const verdicts = checkTargets(goodRun(), limits, 24, goodOther());
  t.deepEqual(
    verdicts.map((v) => [v.target, v.met]),
    [
      ["CPU per request at a steady 1000 requests/s ≤ 1.45 × the stack's", true],
      ["throughput, GET, concurrency 32 ≥ 65% of the stack's", true],
      ["throughput, POST 1 KiB, concurrency 32 ≥ 65% of the stack's", true],
      ["p99, GET, concurrency 32 ≤ 1.3 × the stack's (3 rounds or more)", true],
      ["p99.9, GET, concurrency 32 ≤ 2 × the stack's (3 rounds or more)", true],
      ["p99, POST 1 KiB, concurrency 32 ≤ 1.3 × the stack's (3 rounds or more)", true],
      ["p99.9, POST 1 KiB, concurrency 32 ≤ 2 × the stack's (3 rounds or more)", true],
      ["p50 at concurrency 1 over the stack's (reported)", null],
      ["private memory (Anonymous) ≤ the stack's + 14 MB in every scenario", true],
      ["idle, probes and scrapes: main-thread wake-ups ≤ the stack's + 2/s", true],
      ['idle, probes and scrapes: CPU ≤ 0.1% of a core', true],
      ["start to ready ≤ 2 × a bare Node server's first answer", true],
      ['zero errors in every scenario', true],
      ['upstream sockets bounded (≤ 64 open) and reused (≥ 10 requests per new socket)', true],
    ],
  );
  t.is(verdict(verdicts, 'idle, probes and scrapes: main').measured, '+1.00/s; 1.5/s against 0.5/s over 60 s');
  t.is(
    verdict(verdicts, 'idle, probes and scrapes: CPU').measured,
    "0.067% (40 ms in 60 s); context: the stack's 0.050%",
  );
  // 170/90, 210/100, 180/95.
  t.is(
    verdict(verdicts, 'start to ready').measured,
    '× 1.89 (rounds 1.89-2.10); 180 against 95 ms; CPU until ready 155 against 42 ms',
  );
  t.is(verdict(verdicts, 'p99, GET').measured, '× 1.00 (rounds 1.00-1.00); 1.0 against 1.0 ms');
  t.regex(
    formatTargets(verdicts, 'v24.0.0', false),
    /\| p50 at concurrency 1 over the stack's \(reported\) \| .* \| reported \|/,
  );
  // Round by round: 250/230, 260/240, 300/280; plain-node 250/200, 260/210, 300/240.
  t.is(
    verdict(verdicts, 'CPU').measured,
    "× 1.08 (rounds 1.07-1.09); 260 µs against 240 µs; context: plain-node's × 1.25",
  );
  // 5000/5400, 5100/5500, 4000/4500; nginx 5000/12000, 5100/12500, 4000/12000.
  t.is(
    verdict(verdicts, 'throughput, GET').measured,
    "92.6% (rounds 88.9-92.7); 5000 against 5400 req/s; context: nginx's 40.8%",
  );
  t.is(verdict(verdicts, 'throughput, POST').measured, '91.8% (rounds 91.7-92.0); 4500 against 4900 req/s');
  t.is(
    verdict(verdicts, 'p50').measured,
    '+0.010 ms (rounds +0.010 to +0.010); added over direct: sidecar +0.270 ms, stack +0.260 ms',
  );
  t.is(
    verdict(verdicts, 'private memory').measured,
    '+2.0 MB at most (GET, concurrency 1; rounds +2.0 to +3.0); 41 MB the most in any round; ' +
      'RSS +3.0 MB at most (GET, concurrency 1)',
  );
});

test("each line is judged against its own stack row: Node 22's misses do not touch Node 24's verdicts", (t) => {
  const verdicts = checkTargets(goodRun(), limits, 22);
  t.false(verdict(verdicts, 'CPU').met);
  t.is(verdict(verdicts, 'CPU').measured, '× 4.50 (rounds 4.50-4.50); 900 µs against 200 µs');
  t.false(verdict(verdicts, 'throughput, GET').met);
  t.is(
    verdict(verdicts, 'throughput, GET').measured,
    "20.0% (rounds 20.0-20.0); 1000 against 5000 req/s; context: nginx's 8.3%",
  );
  t.is(verdict(verdicts, 'p50').met, null, 'reported, never judged');
  t.false(verdict(verdicts, 'private memory').met, 'rounds of +22, +22 and +3 MB at concurrency 1');
  t.regex(verdict(verdicts, 'private memory').measured, /^\+22\.0 MB at most \(GET, concurrency 1; rounds \+3\.0 to/);
  t.is(verdict(verdicts, 'throughput, POST').met, null, 'no POST rows on Node 22');
  t.is(verdict(verdicts, 'idle, probes and scrapes: main').met, null, "Node 24's idle row is not Node 22's");
  t.is(verdict(verdicts, 'start to ready').measured, 'not measured on this line');
});

test('a median above a limit is a missed target, though single rounds met it', (t) => {
  const run = goodRun();
  run['GET at a fixed 1000 requests/s']!['sidecar@24'] = [
    round({ cpuUsPerRequest: 320, anonymousMb: 55 }),
    round({ cpuUsPerRequest: 360, anonymousMb: 54 }),
    round({ cpuUsPerRequest: 420, anonymousMb: 40 }),
  ];
  run['POST 1 KiB, concurrency 32']!['sidecar@24'] = [round({ rps: 4500 }), round({ rps: 3000 }), round({ rps: 3100 })];
  run['GET, concurrency 32']!['sidecar@24'] = [
    round({ rps: 5000, p99Ms: 1.2, p999Ms: 5 }),
    round({ rps: 5100, p99Ms: 1.5, p999Ms: 2 }),
    round({ rps: 4000, p99Ms: 1.4, p999Ms: 4.2 }),
  ];
  const verdicts = checkTargets(run, limits, 24);
  t.false(verdict(verdicts, 'CPU').met, 'rounds of 1.39, 1.50 and 1.50');
  t.false(verdict(verdicts, 'throughput, POST').met, 'rounds of 91.8%, 60.0% and 64.6%');
  t.true(verdict(verdicts, 'throughput, GET').met, 'the GET scenario is judged on its own');
  t.false(verdict(verdicts, 'private memory').met, 'rounds of +17, +16 and +2 MB');
  t.regex(
    verdict(verdicts, 'private memory').measured,
    /\(GET at a fixed 1000 requests\/s; rounds \+2\.0 to \+17\.0\)/,
  );
  t.false(verdict(verdicts, 'p99, GET').met, 'rounds of 1.2, 1.5 and 1.4');
  t.false(verdict(verdicts, 'p99.9, GET').met, 'rounds of 2.5, 1.0 and 2.1');
  t.true(verdict(verdicts, 'p99, POST').met, 'the POST tail is judged on its own');
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

test('without a stack row on the line the run cannot tell any cost verdict, and says why', (t) => {
  const run = goodRun();
  for (const byRow of Object.values(run)) delete byRow['stack@24'];
  const verdicts = checkTargets(run, limits, 24);
  for (const name of [
    'CPU',
    'throughput, GET',
    'throughput, POST',
    'p99, GET',
    'p99.9, POST',
    'p50',
    'private memory',
  ]) {
    t.deepEqual([verdict(verdicts, name).measured, verdict(verdicts, name).met], ['no stack row on this line', null]);
  }
  t.true(verdict(verdicts, 'zero errors').met);
  t.regex(
    formatTargets(verdicts, 'v24.0.0', true),
    /Node v24\.0\.0[\s\S]*indicative only[\s\S]*\| no stack row on this line \| cannot tell \|/,
  );
});

test('the context rows are told, never judged: nginx and plain-node far ahead change no verdict', (t) => {
  const run = goodRun();
  run['GET, concurrency 1']!.nginx = [
    round({ p50Ms: 0.25, cpuUsPerRequest: 70 }),
    round({ p50Ms: 0.2, cpuUsPerRequest: 70 }),
    round({ p50Ms: 0.23, cpuUsPerRequest: 70 }),
  ];
  run['GET at a fixed 1000 requests/s']!['plain-node@24'] = [
    round({ cpuUsPerRequest: 50 }),
    round({ cpuUsPerRequest: 50 }),
    round({ cpuUsPerRequest: 50 }),
  ];
  const verdicts = checkTargets(run, limits, 24, goodOther());
  // Round by round against direct (0.05, 0.06, 0.05): +0.20, +0.14, +0.18.
  t.regex(verdict(verdicts, 'p50').measured, /, nginx \+0\.180 ms$/);
  t.regex(verdict(verdicts, 'CPU').measured, /; context: plain-node's × 5\.20$/);
  t.true(verdicts.filter((v) => !v.reportedOnly).every((v) => v.met === true));
});

test('a tail from fewer rounds than the targets need cannot be told, and says how many it had', (t) => {
  const verdicts = checkTargets(goodRun(), { ...limits, minTailRounds: 9 }, 24);
  t.is(verdict(verdicts, 'p99.9, GET').met, null);
  t.regex(verdict(verdicts, 'p99.9, GET').measured, /; 3 round\(s\): cannot tell$/);
});

test('idle beyond the limits, or a slow start, misses its target', (t) => {
  const other: OtherRows = {
    idle: { 'sidecar@24': idleRow(100, 170), 'stack@24': idleRow(0.5, 30) },
    ready: { 'bare-node@24': [{ ms: 90, cpuMs: 40 }], 'sidecar@24': [{ ms: 340, cpuMs: 300 }] },
  };
  const verdicts = checkTargets(goodRun(), limits, 24, other);
  t.false(verdict(verdicts, 'idle, probes and scrapes: main').met);
  t.false(verdict(verdicts, 'idle, probes and scrapes: CPU').met, '0.28% of a core');
  t.false(verdict(verdicts, 'start to ready').met);
});
