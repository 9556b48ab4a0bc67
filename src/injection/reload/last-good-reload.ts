// One loop for everything the injector re-reads while it runs (its certificate files, its policy file,
// the certificates it keeps through the API): triggers ask for a read, the value in use changes only
// for a newer input that parses, and everything else keeps the last good value.
// - A read never starts while the loop waits for another: a trigger during a read asks for exactly one
//   more read after it, so a burst of triggers costs two reads, and a slow read is not raced by the next.
// - A read that rejects, or whose input does not parse, reports why and changes nothing.
// - A read that outlives its deadline is given up: it reports, and the next trigger reads again rather
//   than the loop stopping for good on a call that never ends. Each read carries a sequence number, and
//   an outcome older than one already taken is dropped, so a given-up read that ends late never
//   overwrites what a newer read found.
// - Reading an input again that is the same as the last one read changes and reports nothing: a file
//   that does not parse is reported once, not at every tick of a timer.
import { setTimeout as delay } from 'node:timers/promises';

export type Parsed<T, F> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: F };

export interface LastGoodReloadOptions<I, T, F> {
  /** The value in use, and the input it was made from. */
  readonly initial: { readonly input: I; readonly value: T };
  readonly read: () => Promise<I>;
  readonly parse: (input: I) => Parsed<T, F>;
  readonly sameInput: (a: I, b: I) => boolean;
  /** What a read that rejected, or was given up on (a StalledRead), reports. */
  readonly failureOf: (error: unknown) => F;
  /** Starts what calls `fire` (directory watches, a timer); returns what stops it. */
  readonly triggers: (fire: () => void) => () => void;
  /** Resolves once a read has run too long to wait for; `ended` aborts when the read ends first. */
  readonly deadline: (ended: AbortSignal) => Promise<unknown>;
  /** A newer value that parsed, now in use. */
  readonly loaded: (value: T) => void;
  /** Why a read changed nothing, with the value that stays in use. */
  readonly rejected: (failure: F, current: T) => void;
}

export interface LastGoodReload<T> {
  readonly current: () => T;
  readonly stop: () => void;
}

/** The failure of a read given up at its deadline. */
export class StalledRead extends Error {
  constructor() {
    super('did not end in time; the next trigger reads again');
    this.name = 'StalledRead';
  }
}

/** A deadline `ms` after a read starts, whose timer neither outlives the read nor holds the process. */
export const deadlineAfter =
  (ms: number) =>
  (ended: AbortSignal): Promise<unknown> =>
    delay(ms, undefined, { signal: ended, ref: false });

type Outcome<I> = { readonly input: I } | { readonly error: unknown };

export function startLastGoodReload<I, T, F>(options: LastGoodReloadOptions<I, T, F>): LastGoodReload<T> {
  const kept = keepLastGood(options);
  let started = 0;
  let reading: AbortController | undefined;
  let again = false;
  const { take } = kept;

  const start = (): void => {
    const sequence = ++started;
    const ended = new AbortController();
    reading = ended;
    // The loop waits for this read until it ends or is given up, whichever comes first.
    const done = (): void => {
      if (reading !== ended) return;
      reading = undefined;
      ended.abort();
      if (again && !kept.stopped) {
        again = false;
        start();
      }
    };
    options.deadline(ended.signal).then(
      () => {
        if (reading !== ended) return;
        try {
          take(sequence, { error: new StalledRead() });
        } finally {
          done();
        }
      },
      () => undefined,
    );
    void (async () => {
      let outcome: Outcome<I>;
      try {
        outcome = { input: await options.read() };
      } catch (error) {
        outcome = { error };
      }
      try {
        take(sequence, outcome);
      } finally {
        done();
      }
    })();
  };

  const fire = (): void => {
    if (kept.stopped) return;
    if (reading === undefined) start();
    else again = true;
  };

  const stopTriggers = options.triggers(fire);
  return {
    current: () => kept.current,
    stop() {
      kept.stopped = true;
      again = false;
      reading?.abort();
      stopTriggers();
    },
  };
}

/** The value in use and the inputs it is judged against, and how each read's outcome is taken. */
interface LastGood<I, T> {
  current: T;
  /** Once stopped, no outcome is taken. */
  stopped: boolean;
  /** Takes a read's outcome, unless a later read's was taken already. */
  readonly take: (sequence: number, outcome: Outcome<I>) => void;
}

function keepLastGood<I, T, F>(options: LastGoodReloadOptions<I, T, F>): LastGood<I, T> {
  // The input the value in use came from, and the newest input read, parsed or not.
  let good = options.initial.input;
  let seen = options.initial.input;
  let taken = 0;
  const kept: LastGood<I, T> = {
    current: options.initial.value,
    stopped: false,
    take: (sequence, outcome) => {
      if (kept.stopped || sequence <= taken) return;
      taken = sequence;
      if ('error' in outcome) return options.rejected(options.failureOf(outcome.error), kept.current);
      const { input } = outcome;
      if (options.sameInput(input, seen)) return;
      seen = input;
      if (options.sameInput(input, good)) return;
      const parsed = options.parse(input);
      if (!parsed.ok) return options.rejected(parsed.failure, kept.current);
      good = input;
      kept.current = parsed.value;
      options.loaded(parsed.value);
    },
  };
  return kept;
}
