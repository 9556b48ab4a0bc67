// JavaScript regular expressions parsed into a tree, for the checks that no pattern backtracks more than
// linearly (regex-steps.ts counts the work of matching, regex-nesting.ts judges the shape). Everything
// the patterns of src/ and of the YAML library use is understood; anything else (a back-reference, a
// property escape) is refused by name, so that a new kind of pattern is looked at, not waved through.

/** Whether a character (a UTF-16 code unit) is one the node matches. */
export type CharTest = (code: number) => boolean;

export type RegexNode =
  | { readonly type: 'char'; readonly test: CharTest }
  | { readonly type: 'sequence'; readonly items: readonly RegexNode[] }
  | { readonly type: 'alternation'; readonly branches: readonly RegexNode[] }
  | {
      readonly type: 'repeat';
      readonly body: RegexNode;
      readonly min: number;
      readonly max: number;
      readonly greedy: boolean;
    }
  | { readonly type: 'look'; readonly body: RegexNode; readonly ahead: boolean; readonly negated: boolean }
  | { readonly type: 'assertion'; readonly kind: 'start' | 'end' | 'word' | 'not-word' };

export interface ParsedRegex {
  readonly root: RegexNode;
  readonly flags: string;
}

const code = (char: string): number => char.charCodeAt(0);

/** `\s`: white space and line terminators, as ECMAScript defines them. */
const SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);
export const isSpace: CharTest = (c) => SPACE.has(c) || (c >= 0x2000 && c <= 0x200a);
export const isDigit: CharTest = (c) => c >= 0x30 && c <= 0x39;
export const isWord: CharTest = (c) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
export const isLineTerminator: CharTest = (c) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);

const CLASS_ESCAPES: Readonly<Record<string, CharTest>> = {
  d: isDigit,
  D: not(isDigit),
  w: isWord,
  W: not(isWord),
  s: isSpace,
  S: not(isSpace),
};

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b, f: 0x0c, '0': 0 };

/** Both cases of a letter, for the `i` flag. */
function caseless(test: CharTest): CharTest {
  return (c) => {
    if (test(c)) return true;
    const char = String.fromCharCode(c);
    return test(code(char.toLowerCase())) || test(code(char.toUpperCase()));
  };
}

export function parseRegex(source: string, flags: string): ParsedRegex {
  const ignoreCase = flags.includes('i');
  const dotAll = flags.includes('s');
  const unicode = flags.includes('u') || flags.includes('v');
  let at = 0;

  const fail = (what: string): never => {
    throw new Error(`/${source}/${flags}: ${what} at ${at}`);
  };
  const peek = (): string | undefined => source[at];
  const eat = (char: string): boolean => {
    if (source[at] !== char) return false;
    at += 1;
    return true;
  };
  const charNode = (test: CharTest): RegexNode => ({ type: 'char', test: ignoreCase ? caseless(test) : test });

  function alternation(): RegexNode {
    const branches = [sequence()];
    while (eat('|')) branches.push(sequence());
    return branches.length === 1 ? branches[0]! : { type: 'alternation', branches };
  }

  function sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (at < source.length && peek() !== '|' && peek() !== ')') items.push(quantified(atom()));
    return items.length === 1 ? items[0]! : { type: 'sequence', items };
  }

  function quantified(body: RegexNode): RegexNode {
    let min: number;
    let max: number;
    const start = at;
    if (eat('*')) [min, max] = [0, Infinity];
    else if (eat('+')) [min, max] = [1, Infinity];
    else if (eat('?')) [min, max] = [0, 1];
    else if (peek() === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(at, at + 24))) {
      const [, low, comma, high] = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at))!;
      min = Number(low);
      max = comma === undefined ? min : high === '' || high === undefined ? Infinity : Number(high);
      at += source.slice(at).indexOf('}') + 1;
    } else return body;
    if (body.type === 'assertion' || body.type === 'look') {
      at = start;
      fail('a quantified assertion');
    }
    const greedy = !eat('?');
    return { type: 'repeat', body, min, max, greedy };
  }

  function atom(): RegexNode {
    const char = source[at]!;
    at += 1;
    switch (char) {
      case '^':
        return { type: 'assertion', kind: 'start' };
      case '$':
        return { type: 'assertion', kind: 'end' };
      case '.':
        return charNode(dotAll ? () => true : not(isLineTerminator));
      case '[':
        return charNode(characterClass());
      case '(':
        return group();
      case '\\':
        return escape();
      case '*':
      case '+':
      case '?':
        return fail('a quantifier with nothing to repeat');
      default:
        if (unicode && char.codePointAt(0)! > 0xffff) fail('a character outside the basic plane');
        return charNode((c) => c === code(char));
    }
  }

  function group(): RegexNode {
    let node: RegexNode;
    if (eat('?')) {
      if (eat(':')) node = alternation();
      else if (eat('=')) node = { type: 'look', body: alternation(), ahead: true, negated: false };
      else if (eat('!')) node = { type: 'look', body: alternation(), ahead: true, negated: true };
      else if (source.startsWith('<=', at) || source.startsWith('<!', at)) {
        const negated = source[at + 1] === '!';
        at += 2;
        node = { type: 'look', body: alternation(), ahead: false, negated };
      } else if (eat('<')) {
        const end = source.indexOf('>', at);
        if (end === -1) fail('an unclosed group name');
        at = end + 1;
        node = alternation();
      } else return fail('an unknown group');
    } else node = alternation();
    if (!eat(')')) fail('an unclosed group');
    return node;
  }

  function escape(): RegexNode {
    const char = source[at];
    if (char === undefined) return fail('a lone backslash');
    if (char === 'b' || char === 'B') {
      at += 1;
      return { type: 'assertion', kind: char === 'b' ? 'word' : 'not-word' };
    }
    if (/[1-9k]/.test(char)) return fail('a back-reference');
    if (char === 'p' || char === 'P') return fail('a property escape');
    const known = CLASS_ESCAPES[char];
    if (known) {
      at += 1;
      return charNode(known);
    }
    const value = escapedCode();
    return charNode((c) => c === value);
  }

  /** The code of an escape that stands for one character (after the backslash). */
  function escapedCode(): number {
    const char = source[at]!;
    at += 1;
    if (char in CONTROL_ESCAPES && !(char === '0' && /\d/.test(source[at] ?? ''))) return CONTROL_ESCAPES[char]!;
    if (char === 'x') return hex(2);
    if (char === 'u') {
      if (eat('{')) {
        const end = source.indexOf('}', at);
        const value = parseInt(source.slice(at, end), 16);
        at = end + 1;
        if (value > 0xffff) fail('a character outside the basic plane');
        return value;
      }
      return hex(4);
    }
    if (char === 'c') {
      const letter = source[at] ?? '';
      at += 1;
      return code(letter) % 32;
    }
    if (/[0-9]/.test(char)) fail('an octal escape');
    return code(char);
  }

  function hex(digits: number): number {
    const text = source.slice(at, at + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(text)) fail('a bad hex escape');
    at += digits;
    return parseInt(text, 16);
  }

  function characterClass(): CharTest {
    const negated = eat('^');
    const parts: CharTest[] = [];
    while (peek() !== ']') {
      if (at >= source.length) fail('an unclosed class');
      const low = classAtom();
      if (peek() === '-' && source[at + 1] !== ']' && typeof low === 'number') {
        at += 1;
        const high = classAtom();
        if (typeof high !== 'number') return fail('a range to a class');
        parts.push((c) => c >= low && c <= high);
      } else parts.push(typeof low === 'number' ? (c) => c === low : low);
    }
    at += 1;
    const test: CharTest = (c) => parts.some((part) => part(c));
    return negated ? not(test) : test;
  }

  /** One character of a class (its code), or a class escape (`\d` and the like). */
  function classAtom(): number | CharTest {
    const char = source[at]!;
    at += 1;
    if (char !== '\\') return code(char);
    const next = source[at]!;
    const known = CLASS_ESCAPES[next];
    if (known) {
      at += 1;
      return known;
    }
    if (next === 'b') {
      at += 1;
      return 0x08;
    }
    if (next === '-') {
      at += 1;
      return code('-');
    }
    return escapedCode();
  }

  const root = alternation();
  if (at < source.length) fail('an unmatched parenthesis');
  return { root, flags };
}
