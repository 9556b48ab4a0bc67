// Every regular expression of the code that reads manifests and their values (src/injection, src/text,
// the quantity and profile parsers of src/config) matches in time linear in its input. None has the
// shape that backtracks exponentially; and on inputs made of a prefix, a piece repeated and a suffix
// (the form every backtracking attack takes), doubling the repetitions at most doubles the steps a
// backtracking matcher takes. Steps are counted, never timed, so the answer is the same on a busy
// machine.
import test from 'ava';
import fc from 'fast-check';
import { nestedRepetitions } from '../helpers/regex-nesting.js';
import { countRegexSteps } from '../helpers/regex-steps.js';
import { parseRegex, type RegexNode } from '../helpers/regex-syntax.js';
import { sourceRegexes } from '../helpers/source-regexes.js';

/** The code that reads manifests, and the parsers of config/ it reads their values with. */
const { patterns, computed } = sourceRegexes(['injection', 'text', 'config/quantity.ts', 'config/profile-parsers.ts']);

/** Steps of a pattern over the input as a replace or test makes them; null past a linear budget. */
function stepsOf(source: string, flags: string, input: string): number | null {
  const regex = new RegExp(source, flags);
  const run = countRegexSteps(
    () => (regex.global ? input.replace(regex, '') : regex.test(input)),
    (scanned) => 64 * (source.length + 1) * scanned,
  );
  return run.overBudget.length > 0 ? null : run.steps;
}

const REPEATS = 64;

/** Whether doubling the repetitions at most doubles the steps (a little more for the ends). */
function growsLinearly(source: string, flags: string, input: { prefix: string; piece: string; suffix: string }) {
  const once = stepsOf(source, flags, input.prefix + input.piece.repeat(REPEATS) + input.suffix);
  const twice = stepsOf(source, flags, input.prefix + input.piece.repeat(2 * REPEATS) + input.suffix);
  const ends = input.prefix.length + input.suffix.length + input.piece.length;
  return once !== null && twice !== null && twice <= 2 * once + 4 * (source.length + 1) * (ends + 1);
}

/** Characters to build inputs from: some each part of the pattern matches, and some it gives meaning to. */
function alphabetOf(source: string, flags: string): string[] {
  const candidates = [...Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i)), '\t', '\n', '\r'];
  const found = new Set(['\n', ' ', 'a', '0', '#', '-', ':', '"', '\\', '\u2028', '\u00a0']);
  const visit = (node: RegexNode): void => {
    if (node.type === 'char')
      candidates.filter((char) => node.test(char.charCodeAt(0))).forEach((char, index) => index < 3 && found.add(char));
    if (node.type === 'sequence') node.items.forEach(visit);
    if (node.type === 'alternation') node.branches.forEach(visit);
    if (node.type === 'repeat' || node.type === 'look') visit(node.body);
  };
  visit(parseRegex(source, flags).root);
  return [...found];
}

/** Inputs of the attack form; a suffix often starts a new line, where line-wise patterns fail. */
const pumped = (alphabet: string[]) => {
  const text = (minLength: number) =>
    fc.array(fc.constantFrom(...alphabet), { minLength, maxLength: 3 }).map((chars) => chars.join(''));
  const newLine = fc.tuple(fc.constantFrom('\n', '\r', '\u2028'), text(1)).map((parts) => parts.join(''));
  return fc.record({ prefix: text(0), piece: text(1), suffix: fc.oneof(text(0), newLine) });
};

test('every pattern is written as a literal, so that the checks below read them all', (t) => {
  t.deepEqual(computed, []);
  t.true(patterns.length >= 15, `${patterns.length} patterns found`);
});

test('no pattern repeats what can match in more than one way', (t) => {
  const found = patterns.flatMap(({ where, source, flags }) =>
    nestedRepetitions(parseRegex(source, flags)).map((why) => `${where} /${source}/${flags}: ${why}`),
  );
  t.deepEqual(found, []);
});

test('doubling the repeated piece of any input at most doubles the steps of every pattern', (t) => {
  for (const { where, source, flags } of patterns) {
    const alphabet = alphabetOf(source, flags);
    const result = fc.check(
      fc.property(pumped(alphabet), (input) => growsLinearly(source, flags, input)),
      { numRuns: 300 },
    );
    t.false(result.failed, `${where} /${source}/${flags}: ${JSON.stringify(result.counterexample)}`);
  }
});

/** Comments, blank lines and directives, as a pattern would find them: it tries every way to cut a banner. */
const PRELUDE_BY_BACKTRACKING = String.raw`^(\s|#.*|%.*)*$`;

test('the checks catch patterns that backtrack: exponentially, by shape and by count; polynomially, by count', (t) => {
  const banner = { prefix: '', piece: '#', suffix: '\nx' };
  for (const [source, why] of [
    [PRELUDE_BY_BACKTRACKING, 'a repetition inside a repetition'],
    ['^(a+)+$', 'a repetition inside a repetition'],
    ['^(a|ab)*c', 'a repeated alternation whose branches can start with the same character'],
  ] as const)
    t.true(nestedRepetitions(parseRegex(source, '')).includes(why), source);
  t.is(stepsOf(PRELUDE_BY_BACKTRACKING, '', '#'.repeat(40) + banner.suffix), null, 'over the budget');
  t.false(growsLinearly(PRELUDE_BY_BACKTRACKING, '', banner));
  t.false(growsLinearly(String.raw`\s+$`, '', { prefix: 'a', piece: ' ', suffix: 'a' }), 'trimming by a pattern');
  t.false(growsLinearly('^a*a*b', '', { prefix: '', piece: 'a', suffix: '' }), 'two runs of one character');
  const search = fc.property(pumped(alphabetOf(PRELUDE_BY_BACKTRACKING, '')), (input) =>
    growsLinearly(PRELUDE_BY_BACKTRACKING, '', input),
  );
  t.true(fc.check(search, { numRuns: 500 }).failed, 'random inputs find it too');
  t.true(growsLinearly('^---', 'gm', { prefix: '', piece: '---\n', suffix: '' }), 'a linear pattern passes');
});
