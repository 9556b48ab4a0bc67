// The reload loop driven by hand: the test fires the triggers, and settles each read and each deadline
// itself, in whatever order it chooses, so every interleaving is exact and nothing waits on a clock.
import test from 'ava';
import {
  reportChanges,
  startLastGoodReload,
  StalledRead,
  type ReloadOutcome,
} from '../../../src/reload/last-good-reload.js';

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every continuation already queued run: the loop's work after a settled promise is all microtasks. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A loop over text inputs: "bad…" does not parse, anything else becomes its upper case. */
function harness() {
  const reads: Deferred<string>[] = [];
  const deadlines: Deferred<void>[] = [];
  const events: string[] = [];
  const outcomes: { outcome: ReloadOutcome<string, string, string>; cause: string }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  let fire!: (cause: string) => void;
  let triggersStopped = false;
  // What the injector's reloads log, from the outcomes.
  const report = reportChanges<string, string, string>({
    loaded: (value) => events.push(`loaded ${value}`),
    rejected: (failure, current) => events.push(`rejected ${failure}, kept ${current}`),
  });
  const reload = startLastGoodReload<string, string, string>({
    initial: { input: 'a', value: 'A' },
    read: async () => {
      const read = deferred<string>();
      reads.push(read);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      try {
        return await read.promise;
      } finally {
        running -= 1;
      }
    },
    parse: (text) =>
      text.startsWith('bad')
        ? { ok: false, failure: `${text} does not parse` }
        : { ok: true, value: text.toUpperCase() },
    sameInput: (a, b) => a === b,
    failureOf: (error) => (error instanceof StalledRead ? 'stalled' : String((error as Error).message)),
    triggers: (f) => {
      fire = f;
      return () => (triggersStopped = true);
    },
    deadline: () => {
      const deadline = deferred<void>();
      deadlines.push(deadline);
      return deadline.promise;
    },
    settled: (outcome, cause) => {
      outcomes.push({ outcome, cause });
      report(outcome);
    },
  });
  return {
    reload,
    reads,
    deadlines,
    events,
    outcomes,
    /** Each outcome as `cause: kind value-or-failure`, `(repeated)` marked. */
    settledAs: () =>
      outcomes.map(({ outcome, cause }) =>
        outcome.kind === 'rejected'
          ? `${cause}: rejected ${outcome.failure}${outcome.repeated ? ' (repeated)' : ''}`
          : `${cause}: ${outcome.kind} ${outcome.value}`,
      ),
    fire: (cause = 'trigger') => fire(cause),
    mostAtOnce: () => mostAtOnce,
    triggersStopped: () => triggersStopped,
  };
}

test('a trigger during a read asks for exactly one more read, after it: reads never overlap', async (t) => {
  const h = harness();
  h.fire();
  t.is(h.reads.length, 1);
  h.fire();
  h.fire();
  h.fire();
  await settled();
  t.is(h.reads.length, 1, 'no read starts while one runs');
  h.reads[0]!.resolve('b');
  await settled();
  t.is(h.reads.length, 2, 'the triggers during the read asked for one more');
  t.is(h.reload.current(), 'B');
  h.reads[1]!.resolve('c');
  await settled();
  t.is(h.reads.length, 2, 'and only one');
  t.is(h.reload.current(), 'C');
  t.is(h.mostAtOnce(), 1);
  t.deepEqual(h.events, ['loaded B', 'loaded C']);
});

test('a read that fails or does not parse keeps the last good value, and reports why', async (t) => {
  const h = harness();
  h.fire();
  h.reads[0]!.reject(new Error('ENOENT'));
  await settled();
  h.fire();
  h.reads[1]!.resolve('bad one');
  await settled();
  t.is(h.reload.current(), 'A');
  t.deepEqual(h.events, ['rejected ENOENT, kept A', 'rejected bad one does not parse, kept A']);

  h.fire();
  h.reads[2]!.resolve('bad one');
  await settled();
  t.is(h.events.length, 2, 'the same input that did not parse is not reported again');
  h.fire();
  h.reads[3]!.resolve('a');
  await settled();
  t.is(h.events.length, 2, 'the input in use, read again, changes and reports nothing');
  h.fire();
  h.reads[4]!.resolve('d');
  await settled();
  t.is(h.reload.current(), 'D');
  t.deepEqual(h.events.slice(2), ['loaded D']);
});

test('an older read never overwrites a newer one, whichever ends first', async (t) => {
  const h = harness();
  h.fire();
  h.deadlines[0]!.resolve();
  await settled();
  t.deepEqual(h.events, ['rejected stalled, kept A'], 'a read past its deadline is given up');
  h.fire();
  t.is(h.reads.length, 2, 'the next trigger reads again while the given-up read still runs');
  h.reads[1]!.resolve('new');
  await settled();
  h.reads[0]!.resolve('old');
  await settled();
  t.is(h.reload.current(), 'NEW', 'the older read ended last and changed nothing');

  h.fire();
  h.deadlines[2]!.resolve();
  await settled();
  h.fire();
  h.reads[2]!.resolve('older');
  await settled();
  t.is(h.reload.current(), 'NEW', 'a given-up read that ends first changes nothing either');
  h.reads[3]!.resolve('newer');
  await settled();
  t.is(h.reload.current(), 'NEWER');
  h.reads[2]!.reject(new Error('late failure'));
  await settled();
  t.deepEqual(h.events, ['rejected stalled, kept A', 'loaded NEW', 'rejected stalled, kept NEW', 'loaded NEWER']);
});

test('a deadline after its read ended changes nothing', async (t) => {
  const h = harness();
  h.fire();
  h.reads[0]!.resolve('b');
  await settled();
  h.deadlines[0]!.resolve();
  await settled();
  t.deepEqual(h.events, ['loaded B']);
  h.fire();
  t.is(h.reads.length, 2);
});

test('once stopped, the triggers stop and a read still running changes nothing', async (t) => {
  const h = harness();
  h.fire();
  h.fire();
  h.reload.stop();
  t.true(h.triggersStopped());
  h.reads[0]!.resolve('b');
  await settled();
  h.fire();
  t.is(h.reads.length, 1, 'neither the read asked for during the first nor a later one starts');
  t.is(h.reload.current(), 'A');
  t.deepEqual(h.events, []);
});

test('every read taken is settled with what it came to, and a recovery is told from no change', async (t) => {
  const h = harness();
  const inputs: [string, 'resolve' | 'reject'][] = [
    ['a', 'resolve'],
    ['bad', 'resolve'],
    ['bad', 'resolve'],
    ['a', 'resolve'],
    ['EIO', 'reject'],
    ['a', 'resolve'],
    ['b', 'resolve'],
  ];
  for (const [index, [input, how]] of inputs.entries()) {
    h.fire(`tick ${index}`);
    if (how === 'resolve') h.reads[index]!.resolve(input);
    else h.reads[index]!.reject(new Error(input));
    await settled();
  }
  t.deepEqual(h.settledAs(), [
    'tick 0: unchanged A',
    'tick 1: rejected bad does not parse',
    'tick 2: rejected bad does not parse (repeated)',
    'tick 3: recovered A',
    'tick 4: rejected EIO',
    'tick 5: recovered A',
    'tick 6: loaded B',
  ]);
  t.deepEqual(h.events, ['rejected bad does not parse, kept A', 'rejected EIO, kept A', 'loaded B']);
});

test('a read asked for answers with the outcome of a read that started after the ask', async (t) => {
  const h = harness();
  const first = h.reload.read('first');
  const second = h.reload.read('second');
  const third = h.reload.read('third');
  t.is(h.reads.length, 1, 'the asks during a read wait for one more read after it');
  h.reads[0]!.resolve('b');
  await settled();
  t.is(h.reads.length, 2);
  h.reads[1]!.resolve('bad');
  t.like(await first, { kind: 'loaded', value: 'B' });
  t.like(await second, { kind: 'rejected', failure: 'bad does not parse', current: 'B' });
  t.is(await third, await second, 'both asks during the first read are answered by the second');
  t.deepEqual(
    h.outcomes.map(({ cause }) => cause),
    ['first', 'second'],
    'a read carries the cause of the first ask it answers',
  );
});

test('a read asked for that stalls is answered at its deadline, and the next ask reads again', async (t) => {
  const h = harness();
  const stalled = h.reload.read('hung');
  const after = h.reload.read('change');
  h.deadlines[0]!.resolve();
  t.like(await stalled, { kind: 'rejected', failure: 'stalled', current: 'A' });
  t.is(h.reads.length, 2, 'the ask made while the read hung runs once it is given up');
  h.reads[1]!.resolve('c');
  t.like(await after, { kind: 'loaded', value: 'C' });
  h.reads[0]!.resolve('hung read ends');
  await settled();
  t.is(h.reload.current(), 'C');
});

test('asks waiting when the loop stops are answered as stopped, and later asks at once', async (t) => {
  const h = harness();
  const running = h.reload.read('one');
  const waiting = h.reload.read('two');
  h.reload.stop();
  t.deepEqual(await running, { kind: 'stopped' });
  t.deepEqual(await waiting, { kind: 'stopped' });
  t.deepEqual(await h.reload.read('three'), { kind: 'stopped' });
  t.is(h.reads.length, 1);
});
