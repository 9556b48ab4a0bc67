// The reload loop driven by hand: the test fires the triggers, and settles each read and each deadline
// itself, in whatever order it chooses, so every interleaving is exact and nothing waits on a clock.
import test from 'ava';
import { startLastGoodReload, StalledRead } from '../../../../src/injection/reload/last-good-reload.js';

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
  let running = 0;
  let mostAtOnce = 0;
  let fire!: () => void;
  let triggersStopped = false;
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
    loaded: (value) => events.push(`loaded ${value}`),
    rejected: (failure, current) => events.push(`rejected ${failure}, kept ${current}`),
  });
  return {
    reload,
    reads,
    deadlines,
    events,
    fire: () => fire(),
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
