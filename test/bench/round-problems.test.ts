// The lines `npm run bench` prints about troubled rounds: where errors happened and of what kind, and
// which rounds the machine stalled, so that a failed bench says whether to look at the sidecar or at
// the machine.
import test from 'ava';
import { roundProblems, type RoundOutcome } from '../../bench/round-problems.js';

const clean = { socket: 0, timeout: 0, status: 0 };
const outcome = (overrides: Partial<RoundOutcome>): RoundOutcome => ({
  scenario: 'GET, concurrency 32',
  row: 'sidecar',
  round: 0,
  errorKinds: clean,
  seconds: 10.02,
  plannedSeconds: 10,
  ...overrides,
});

test('rounds without errors that ran about as long as planned print nothing', (t) => {
  t.deepEqual(roundProblems([outcome({}), outcome({ round: 1, seconds: 14.9 })]), []);
});

test('a round with errors names its scenario, row and round (1-based) and each kind of error', (t) => {
  const lines = roundProblems([
    outcome({}),
    outcome({
      scenario: 'POST 1 KiB, concurrency 1',
      row: 'nginx',
      round: 2,
      errorKinds: { socket: 2, timeout: 1, status: 3 },
    }),
  ]);
  t.deepEqual(lines, [
    'POST 1 KiB, concurrency 1, nginx, round 3: 6 errors (1 timed out, 2 socket errors, 3 non-2xx answers)',
  ]);
});

test('a round that took half again its planned time or more is reported as a stall, with or without errors', (t) => {
  const lines = roundProblems([
    outcome({ row: 'nginx', seconds: 31.04, errorKinds: { socket: 0, timeout: 1, status: 0 } }),
    outcome({ row: 'plain-node', round: 4, seconds: 15 }),
  ]);
  t.deepEqual(lines, [
    'GET, concurrency 32, nginx, round 1: 1 error (1 timed out); ran 31.0 s of a planned 10 s: the machine stalled',
    'GET, concurrency 32, plain-node, round 5: ran 15.0 s of a planned 10 s: the machine stalled',
  ]);
});

test('a single error of one kind is worded in the singular', (t) => {
  t.deepEqual(
    roundProblems([
      outcome({ errorKinds: { socket: 1, timeout: 0, status: 0 } }),
      outcome({ round: 1, errorKinds: { socket: 0, timeout: 0, status: 1 } }),
    ]),
    [
      'GET, concurrency 32, sidecar, round 1: 1 error (1 socket error)',
      'GET, concurrency 32, sidecar, round 2: 1 error (1 non-2xx answer)',
    ],
  );
});
