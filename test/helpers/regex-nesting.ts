// The shapes of pattern that backtrack exponentially, found from the pattern alone: a repetition whose
// body can itself match a varying number of characters in more than one way. Such a body is repeated
// by a quantifier (`(a+)*`, `(\s|#.*)*`) or an alternation whose branches can start with the same
// character (`(a|ab)*`); on an input that almost matches, every way of cutting it into iterations is
// tried. Polynomial shapes (`\s*\s*$`) are left to the step count of regex-steps.ts.
import type { CharTest, ParsedRegex, RegexNode } from './regex-syntax.js';

/** Why the pattern backtracks exponentially, one line per repetition at fault; empty when it cannot. */
export function nestedRepetitions(parsed: ParsedRegex): string[] {
  const found: string[] = [];
  const visit = (node: RegexNode): void => {
    if (node.type === 'repeat' && node.max > 1) {
      if (containsVaryingRepeat(node.body)) found.push('a repetition inside a repetition');
      if (containsOverlappingAlternation(node.body))
        found.push('a repeated alternation whose branches can start with the same character');
    }
    for (const child of children(node)) visit(child);
  };
  visit(parsed.root);
  return found;
}

function children(node: RegexNode): readonly RegexNode[] {
  switch (node.type) {
    case 'sequence':
      return node.items;
    case 'alternation':
      return node.branches;
    case 'repeat':
    case 'look':
      return [node.body];
    default:
      return [];
  }
}

const containsVaryingRepeat = (node: RegexNode): boolean =>
  (node.type === 'repeat' && node.max > node.min) || children(node).some(containsVaryingRepeat);

const containsOverlappingAlternation = (node: RegexNode): boolean =>
  (node.type === 'alternation' &&
    node.branches.some((branch, index) =>
      node.branches.slice(index + 1).some((other) => overlap(firstCharacters(branch), firstCharacters(other))),
    )) ||
  children(node).some(containsOverlappingAlternation);

/** The tests of the characters a node can start with (an empty match can start with anything after it). */
function firstCharacters(node: RegexNode): { tests: CharTest[]; empty: boolean } {
  switch (node.type) {
    case 'char':
      return { tests: [node.test], empty: false };
    case 'assertion':
    case 'look':
      return { tests: [], empty: true };
    case 'alternation': {
      const all = node.branches.map(firstCharacters);
      return { tests: all.flatMap((first) => first.tests), empty: all.some((first) => first.empty) };
    }
    case 'repeat': {
      const body = firstCharacters(node.body);
      return { tests: body.tests, empty: body.empty || node.min === 0 };
    }
    case 'sequence': {
      const tests: CharTest[] = [];
      for (const item of node.items) {
        const first = firstCharacters(item);
        tests.push(...first.tests);
        if (!first.empty) return { tests, empty: false };
      }
      return { tests, empty: true };
    }
  }
}

/** Whether two sets of first characters share one (an empty branch shares the position with any other). */
function overlap(a: { tests: CharTest[]; empty: boolean }, b: { tests: CharTest[]; empty: boolean }): boolean {
  if (a.empty || b.empty) return true;
  for (let code = 0; code <= 0xffff; code += 1)
    if (a.tests.some((test) => test(code)) && b.tests.some((test) => test(code))) return true;
  return false;
}
