// The work of regular expressions, counted without a clock. A backtracking matcher here follows the
// same paths as V8's own (which also backtracks) and counts each step, so the count of one execution is
// V8's work up to a constant; a count that grows faster than the input is super-linear backtracking,
// found the same way on a busy machine as on an idle one. `countRegexSteps` counts every execution a
// piece of code makes, whoever owns the pattern (src/ or a library), by standing in for
// RegExp.prototype.exec, through which test, match, matchAll, replace and split all go once it is
// replaced.
import {
  isLineTerminator,
  isWord,
  parseRegex,
  type CharTest,
  type ParsedRegex,
  type RegexNode,
} from './regex-syntax.js';

type Continuation = (index: number) => boolean;
type Matcher = (index: number, next: Continuation) => boolean;

/** The input and the count of the execution under way, which the compiled matchers read. */
interface Run {
  input: string;
  steps: number;
  limit: number;
}

class StepLimit extends Error {}

/** A pattern compiled once into matchers that count their steps in the run they are given. */
interface CountingRegex {
  /** The steps of one execution from `from` (lastIndex), as exec makes it; null past `limit` steps. */
  steps(input: string, from: number, limit: number): number | null;
}

function countingRegex(source: string, flags: string): CountingRegex {
  const parsed = parseRegex(source, flags);
  const run: Run = { input: '', steps: 0, limit: 0 };
  const matcher = compile(parsed, run);
  const sticky = flags.includes('y');
  const fromLastIndex = sticky || flags.includes('g');
  const anchored = !flags.includes('m') && startsAnchored(parsed.root);
  return {
    steps(input, from, limit) {
      Object.assign(run, { input, steps: 0, limit });
      const start = fromLastIndex ? from : 0;
      try {
        for (let at = start; at <= input.length; at += 1) if (matcher(at, () => true) || sticky || anchored) break;
        return Math.max(run.steps, 1);
      } catch (error) {
        if (error instanceof StepLimit) return null;
        throw error;
      }
    },
  };
}

/** Whether every way through the pattern starts with `^`: no other place can match, so none is tried. */
function startsAnchored(node: RegexNode): boolean {
  if (node.type === 'assertion') return node.kind === 'start';
  if (node.type === 'sequence') return node.items.length > 0 && startsAnchored(node.items[0]!);
  if (node.type === 'alternation') return node.branches.every(startsAnchored);
  return false;
}

function compile(parsed: ParsedRegex, run: Run): Matcher {
  const multiline = parsed.flags.includes('m');
  const tick = (): void => {
    run.steps += 1;
    if (run.steps > run.limit) throw new StepLimit();
  };
  const codeAt = (index: number): number => run.input.charCodeAt(index);
  const wordAt = (index: number): boolean => index >= 0 && index < run.input.length && isWord(codeAt(index));

  function build(node: RegexNode): Matcher {
    switch (node.type) {
      case 'char': {
        const { test } = node;
        return (index, next) => {
          tick();
          return index < run.input.length && test(codeAt(index)) && next(index + 1);
        };
      }
      case 'sequence':
        return node.items.reduceRight<Matcher>(
          (rest, item) => {
            const first = build(item);
            return (index, next) => first(index, (after) => rest(after, next));
          },
          (index, next) => next(index),
        );
      case 'alternation': {
        const branches = node.branches.map(build);
        return (index, next) => branches.some((branch) => branch(index, next));
      }
      case 'assertion':
        return (index, next) => {
          tick();
          return holds(node.kind, index) && next(index);
        };
      case 'look': {
        const body = build(node.body);
        if (node.ahead)
          return (index, next) => {
            tick();
            return body(index, () => true) !== node.negated && next(index);
          };
        const [shortest, longest] = widths(node.body);
        if (longest === Infinity) throw new Error('a lookbehind of unbounded length');
        return (index, next) => {
          tick();
          let found = false;
          for (let width = shortest; width <= Math.min(longest, index) && !found; width += 1)
            found = body(index - width, (end) => end === index);
          return found !== node.negated && next(index);
        };
      }
      case 'repeat':
        return node.body.type === 'char' ? charRepeat(node, node.body.test) : groupRepeat(node);
    }
  }

  function holds(kind: 'start' | 'end' | 'word' | 'not-word', index: number): boolean {
    const { input } = run;
    switch (kind) {
      case 'start':
        return index === 0 || (multiline && isLineTerminator(codeAt(index - 1)));
      case 'end':
        return index === input.length || (multiline && isLineTerminator(codeAt(index)));
      case 'word':
        return wordAt(index - 1) !== wordAt(index);
      case 'not-word':
        return wordAt(index - 1) === wordAt(index);
    }
  }

  /** A repeated character: a greedy one takes all it can, then gives back one at a time, as V8's loop does. */
  function charRepeat(node: { min: number; max: number; greedy: boolean }, test: CharTest): Matcher {
    const { min, max, greedy } = node;
    const matches = (index: number): boolean => index < run.input.length && test(codeAt(index));
    return (index, next) => {
      tick();
      let count = 0;
      if (greedy) {
        while (count < max && matches(index + count)) {
          tick();
          count += 1;
        }
        for (; count >= min; count -= 1) {
          tick();
          if (next(index + count)) return true;
        }
        return false;
      }
      for (; count < min; count += 1) {
        tick();
        if (!matches(index + count)) return false;
      }
      for (;;) {
        tick();
        if (next(index + count)) return true;
        if (count >= max || !matches(index + count)) return false;
        count += 1;
      }
    };
  }

  /** A repeated group, one iteration at a time; an iteration that matches nothing ends the repetition. */
  function groupRepeat(node: { body: RegexNode; min: number; max: number; greedy: boolean }): Matcher {
    const body = build(node.body);
    const { min, max, greedy } = node;
    const iterate = (index: number, count: number, next: Continuation): boolean => {
      tick();
      const more = (): boolean =>
        count < max &&
        body(index, (after) => (after === index && count >= min ? false : iterate(after, count + 1, next)));
      if (greedy) return more() || (count >= min && next(index));
      return (count >= min && next(index)) || more();
    };
    return (index, next) => iterate(index, 0, next);
  }

  return build(parsed.root);
}

/** The fewest and most characters a node can match. */
function widths(node: RegexNode): [number, number] {
  switch (node.type) {
    case 'char':
      return [1, 1];
    case 'assertion':
    case 'look':
      return [0, 0];
    case 'sequence':
      return node.items.map(widths).reduce(([a, b], [c, d]) => [a + c, b + d], [0, 0]);
    case 'alternation': {
      const all = node.branches.map(widths);
      return [Math.min(...all.map(([low]) => low)), Math.max(...all.map(([, high]) => high))];
    }
    case 'repeat': {
      const [low, high] = widths(node.body);
      return [low * node.min, high === 0 ? 0 : high * node.max];
    }
  }
}

export interface StepCount<T> {
  readonly result: T;
  /** Steps of every execution made, added up. */
  readonly steps: number;
  /** Each execution that went past its budget, named by pattern and input length. */
  readonly overBudget: readonly string[];
}

/**
 * Runs `work`, counting the steps of every regular expression it executes. An execution past its
 * budget (`budget` of the characters it can scan) is recorded and answered as no match, so that a
 * pattern that would backtrack for hours ends the count at once instead.
 */
export function countRegexSteps<T>(work: () => T, budget: (scanned: number, pattern: RegExp) => number): StepCount<T> {
  const native = Object.getOwnPropertyDescriptor(RegExp.prototype, 'exec')!;
  const nativeExec = native.value as (this: RegExp, value: string) => RegExpExecArray | null;
  const compiled = new Map<string, CountingRegex>();
  const overBudget: string[] = [];
  let steps = 0;
  let counting = false;
  function exec(this: RegExp, value: string): RegExpExecArray | null {
    // The counting itself runs patterns of its own (and parses with them): those are not counted.
    if (counting) return nativeExec.call(this, value);
    counting = true;
    try {
      const input = String(value);
      const key = `${this.flags}/${this.source}`;
      const regex = compiled.get(key) ?? countingRegex(this.source, this.flags);
      compiled.set(key, regex);
      const from = this.global || this.sticky ? this.lastIndex : 0;
      const limit = budget(Math.max(0, input.length - from) + 1, this);
      const taken = regex.steps(input, from, limit);
      if (taken === null) {
        overBudget.push(`/${this.source}/${this.flags} on ${input.length} characters: more than ${limit} steps`);
        if (this.global || this.sticky) this.lastIndex = 0;
        return null;
      }
      steps += taken;
    } finally {
      counting = false;
    }
    return nativeExec.call(this, value);
  }
  Object.defineProperty(RegExp.prototype, 'exec', { ...native, value: exec });
  try {
    return { result: work(), steps, overBudget };
  } finally {
    Object.defineProperty(RegExp.prototype, 'exec', native);
  }
}
