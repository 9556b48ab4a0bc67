// One loop for everything re-read while a process runs (the key store, the injector's certificate
// files, its policy file, the certificates it keeps through the API): a read is asked for, the value in
// use changes only for a newer input that parses, and everything else keeps the last good value.
// - A read never starts while the loop waits for another: a read asked for during one is one more read
//   after it, however many ask, so a burst costs two reads and a slow read is not raced by the next.
// - A read that rejects, or whose input does not parse, is a failure and changes nothing.
// - A read that outlives its deadline is given up: it fails, and the next read asked for runs rather
//   than the loop stopping for good on a call that never ends. Each read carries a sequence number, and
//   an outcome older than one already taken is dropped, so a given-up read that ends late never
//   overwrites what a newer read found.
// - Every read taken is settled with what it came to, as data (ReloadOutcome): loaded, recovered (the
//   input in use read again after a failure), unchanged, or rejected; a rejection of the same input as
//   the read before is marked repeated, so that a caller reports a broken file once, not at every tick.
import { setTimeout as delay } from 'node:timers/promises';

export type Parsed<T, F> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: F };

/** What a read came to. `input` is what it read; a read that rejected or was given up has none. */
export type ReloadOutcome<I, T, F> =
  /** A newer input that parses: its value is now in use. */
  | { readonly kind: 'loaded'; readonly input: I; readonly value: T }
  /** The input in use, read again after a failed read: the failure is over, the value is the same. */
  | { readonly kind: 'recovered'; readonly input: I; readonly value: T }
  /** The input in use, read again. */
  | { readonly kind: 'unchanged'; readonly input: I; readonly value: T }
  /** Nothing changes: `current` stays in use. `repeated`: the same input as the read before, rejected then too. */
  | {
      readonly kind: 'rejected';
      readonly failure: F;
      readonly current: T;
      readonly repeated: boolean;
      readonly input?: I;
    };

/** The outcome of a read asked for, or `stopped` when the loop stopped before the read ended. */
export type ReadResult<I, T, F> = ReloadOutcome<I, T, F> | { readonly kind: 'stopped' };

export interface LastGoodReloadOptions<I, T, F> {
  /** The value in use, and the input it was made from. */
  readonly initial: { readonly input: I; readonly value: T };
  readonly read: () => Promise<I>;
  readonly parse: (input: I) => Parsed<T, F>;
  readonly sameInput: (a: I, b: I) => boolean;
  /** The failure of a read that rejected, or was given up on (a StalledRead). */
  readonly failureOf: (error: unknown) => F;
  /** Starts what asks for reads (directory watches, a timer), each with its cause; returns what stops it. */
  readonly triggers?: (read: (cause: string) => void) => () => void;
  /** Resolves once a read has run too long to wait for; `ended` aborts when the read ends first. */
  readonly deadline: (ended: AbortSignal) => Promise<unknown>;
  /** Every read taken, with the cause of the first ask it answers. */
  readonly settled: (outcome: ReloadOutcome<I, T, F>, cause: string) => void;
}

export interface LastGoodReload<I, T, F> {
  readonly current: () => T;
  /** Asks for a read that starts after this call; resolves with its outcome once it ends or is given up. */
  readonly read: (cause: string) => Promise<ReadResult<I, T, F>>;
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

/**
 * Settles as a reload that only reports: a value newly in use, and a rejection once per input (a read
 * that rejects or stalls, each time).
 */
export function reportChanges<I, T, F>(report: {
  readonly loaded: (value: T) => void;
  readonly rejected: (failure: F, current: T) => void;
}): (outcome: ReloadOutcome<I, T, F>) => void {
  return (outcome) => {
    if (outcome.kind === 'loaded') report.loaded(outcome.value);
    else if (outcome.kind === 'rejected' && !outcome.repeated) report.rejected(outcome.failure, outcome.current);
  };
}

type RawOutcome<I> = { readonly input: I } | { readonly error: unknown };

/** A read asked for: the cause of the first ask, and everyone waiting for its outcome. */
interface Ask<I, T, F> {
  readonly cause: string;
  readonly waiters: ((result: ReadResult<I, T, F>) => void)[];
}

/** A read under way: its number, what aborts its deadline, and who asked for it. */
interface Reading<I, T, F> {
  readonly sequence: number;
  readonly ended: AbortController;
  readonly ask: Ask<I, T, F>;
}

const STOPPED = { kind: 'stopped' } as const;

export function startLastGoodReload<I, T, F>(options: LastGoodReloadOptions<I, T, F>): LastGoodReload<I, T, F> {
  const judge = createJudge(options);
  let started = 0;
  let taken = 0;
  let reading: Reading<I, T, F> | undefined;
  let next: Ask<I, T, F> | undefined;
  let stopped = false;

  const take = (sequence: number, cause: string, raw: RawOutcome<I>): ReloadOutcome<I, T, F> | undefined => {
    if (stopped || sequence <= taken) return undefined;
    taken = sequence;
    const outcome = judge(raw);
    options.settled(outcome, cause);
    return outcome;
  };

  const start = (ask: Ask<I, T, F>): void => {
    const current: Reading<I, T, F> = { sequence: ++started, ended: new AbortController(), ask };
    reading = current;
    // The loop waits for this read until it ends or is given up, whichever comes first.
    const settle = (raw: RawOutcome<I>): void => {
      if (reading !== current) return void take(current.sequence, ask.cause, raw);
      let result: ReadResult<I, T, F> = STOPPED;
      try {
        result = take(current.sequence, ask.cause, raw) ?? STOPPED;
      } finally {
        reading = undefined;
        current.ended.abort();
        for (const resolve of ask.waiters) resolve(result);
        const following = next;
        next = undefined;
        if (following && !stopped) start(following);
      }
    };
    options.deadline(current.ended.signal).then(
      () => reading === current && settle({ error: new StalledRead() }),
      () => undefined,
    );
    void (async () => options.read())().then(
      (input) => settle({ input }),
      (error: unknown) => settle({ error }),
    );
  };

  const read = (cause: string): Promise<ReadResult<I, T, F>> =>
    new Promise((resolve) => {
      if (stopped) return resolve(STOPPED);
      if (reading === undefined) return start({ cause, waiters: [resolve] });
      next ??= { cause, waiters: [] };
      next.waiters.push(resolve);
    });

  const stopTriggers = options.triggers?.((cause) => void read(cause));
  return {
    current: judge.current,
    read,
    stop() {
      stopped = true;
      const waiting = [...(reading?.ask.waiters ?? []), ...(next?.waiters ?? [])];
      reading?.ended.abort();
      reading = undefined;
      next = undefined;
      stopTriggers?.();
      for (const resolve of waiting) resolve(STOPPED);
    },
  };
}

/**
 * What each read taken comes to, against the value in use, the input it came from, and the newest
 * input read, parsed or not (with its failure when it did not parse).
 */
function createJudge<I, T, F>(
  options: Pick<LastGoodReloadOptions<I, T, F>, 'initial' | 'parse' | 'sameInput' | 'failureOf'>,
): ((raw: RawOutcome<I>) => ReloadOutcome<I, T, F>) & { current: () => T } {
  let current = options.initial.value;
  let good = options.initial.input;
  let seen = options.initial.input;
  let seenFailure: { readonly failure: F } | undefined;
  let lastFailed = false;
  const judgeInput = (input: I): ReloadOutcome<I, T, F> => {
    if (seenFailure !== undefined && options.sameInput(input, seen))
      return { kind: 'rejected', failure: seenFailure.failure, current, repeated: true, input };
    seen = input;
    seenFailure = undefined;
    if (options.sameInput(input, good)) return { kind: lastFailed ? 'recovered' : 'unchanged', input, value: current };
    const parsed = options.parse(input);
    if (!parsed.ok) {
      seenFailure = { failure: parsed.failure };
      return { kind: 'rejected', failure: parsed.failure, current, repeated: false, input };
    }
    good = input;
    current = parsed.value;
    return { kind: 'loaded', input, value: current };
  };
  const judge = (raw: RawOutcome<I>): ReloadOutcome<I, T, F> => {
    const outcome: ReloadOutcome<I, T, F> =
      'error' in raw
        ? { kind: 'rejected', failure: options.failureOf(raw.error), current, repeated: false }
        : judgeInput(raw.input);
    lastFailed = outcome.kind === 'rejected';
    return outcome;
  };
  return Object.assign(judge, { current: () => current });
}
