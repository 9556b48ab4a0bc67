// A parser for CEL's grammar that builds the tree cel-go's does: `&&` and `||` chains balanced, `!!x`
// and `--x` folded, a negative number one literal, the standard macros (has, all, exists, exists_one,
// map, filter) and the two-variable comprehensions (all, exists, existsOne, transformList, transformMap)
// expanded into comprehensions, optional syntax (`a.?b`, `a[?b]`, `[?x]`, `{?k: v}`) as its calls.
import { ACCUMULATOR, type CelIssue, type Expr, type Literal, type MapEntry, type StructField } from './cel-ast.js';

type TokenKind = 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'ident' | 'punct' | 'eof';
interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly offset: number;
  readonly value?: Literal;
}

const PUNCTUATION = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '+', '-', '*', '/', '%', '?', ':', '.', ','];
const BRACKETS = ['(', ')', '[', ']', '{', '}'];
const RESERVED = new Set(
  'as break const continue else for function if import let loop package namespace return var void while'.split(' '),
);
const ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '?': '?',
  '"': '"',
  "'": "'",
  '`': '`',
};

export class CelSyntaxError extends Error {
  constructor(readonly issue: CelIssue) {
    super(issue.message);
  }
}

function fail(offset: number, message: string): never {
  throw new CelSyntaxError({ offset, message: `Syntax error: ${message}` });
}

function readQuoted(source: string, start: number, raw: boolean, bytes: boolean): { end: number; chars: number[] } {
  const quote = source.startsWith(source[start]!.repeat(3), start) ? source[start]!.repeat(3) : source[start]!;
  let at = start + quote.length;
  const chars: number[] = [];
  const pushText = (text: string) => {
    if (bytes) chars.push(...new TextEncoder().encode(text));
    else for (const c of text) chars.push(c.codePointAt(0)!);
  };
  while (!source.startsWith(quote, at)) {
    if (at >= source.length || (quote.length === 1 && source[at] === '\n')) fail(start, 'token recognition error');
    const c = source[at]!;
    if (c !== '\\' || raw) {
      const point = source.codePointAt(at)!;
      pushText(String.fromCodePoint(point));
      at += point > 0xffff ? 2 : 1;
      continue;
    }
    const e = source[at + 1] ?? '';
    if (e in ESCAPES) {
      pushText(ESCAPES[e]!);
      at += 2;
    } else if (/[xX]/.test(e) || e === 'u' || e === 'U') {
      const width = e === 'u' ? 4 : e === 'U' ? 8 : 2;
      const digits = source.slice(at + 2, at + 2 + width);
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== width) fail(at, 'invalid escape sequence');
      if (bytes && width === 2) chars.push(parseInt(digits, 16));
      else pushText(String.fromCodePoint(parseInt(digits, 16)));
      at += 2 + width;
    } else if (/[0-3]/.test(e)) {
      const digits = source.slice(at + 1, at + 4);
      if (!/^[0-7]{3}$/.test(digits)) fail(at, 'invalid escape sequence');
      if (bytes) chars.push(parseInt(digits, 8));
      else pushText(String.fromCodePoint(parseInt(digits, 8)));
      at += 4;
    } else fail(at, 'invalid escape sequence');
  }
  return { end: at + quote.length, chars };
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const rest = source.slice(at);
    const space = /^(\s+|\/\/[^\n]*)/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    const prefix = /^([rRbB]{1,2})?(['"])/.exec(rest);
    if (prefix && /^(r|b|rb|br)?$/i.test(prefix[1] ?? '')) {
      const flags = (prefix[1] ?? '').toLowerCase();
      const bytes = flags.includes('b');
      const { end, chars } = readQuoted(source, at + flags.length, flags.includes('r'), bytes);
      const value: Literal = bytes
        ? { type: 'bytes', value: Uint8Array.from(chars) }
        : { type: 'string', value: String.fromCodePoint(...chars) };
      tokens.push({ kind: bytes ? 'bytes' : 'string', text: source.slice(at, end), offset: at, value });
      at = end;
      continue;
    }
    const number =
      /^(0[xX][0-9a-fA-F]+[uU]?|\d+\.\d+([eE][+-]?\d+)?|\d+[eE][+-]?\d+|\.\d+([eE][+-]?\d+)?|\d+[uU]?)/.exec(rest);
    if (number && !(number[0].startsWith('.') && tokens.at(-1)?.kind === 'ident')) {
      tokens.push(numberToken(number[0], at));
      at += number[0].length;
      continue;
    }
    const ident = /^[_a-zA-Z][_a-zA-Z0-9]*/.exec(rest);
    if (ident) {
      tokens.push({ kind: 'ident', text: ident[0], offset: at });
      at += ident[0].length;
      continue;
    }
    const punct = [...PUNCTUATION, ...BRACKETS].find((p) => rest.startsWith(p));
    if (!punct) fail(at, `token recognition error at: '${rest[0]}'`);
    tokens.push({ kind: 'punct', text: punct, offset: at });
    at += punct.length;
  }
  tokens.push({ kind: 'eof', text: '<EOF>', offset: source.length });
  return tokens;
}

function numberToken(text: string, offset: number): Token {
  const unsigned = /[uU]$/.test(text);
  const digits = unsigned ? text.slice(0, -1) : text;
  if (/^0[xX]/.test(digits) || /^\d+$/.test(digits)) {
    const value = BigInt(digits);
    return unsigned
      ? { kind: 'uint', text, offset, value: { type: 'uint', value } }
      : { kind: 'int', text, offset, value: { type: 'int', value } };
  }
  return { kind: 'double', text, offset, value: { type: 'double', value: Number(digits) } };
}

type Expander = (p: Parser, offset: number, target: Expr | undefined, args: readonly Expr[]) => Expr;

/** The macros by name and argument count (`member` when called on a receiver). */
const MACROS: Record<string, Expander> = {
  'global:has:1': (p, offset, _t, [arg]) => {
    const selection = arg!;
    if (selection.kind !== 'select') fail(selection.offset, 'invalid argument to has() macro');
    return p.node(offset, { kind: 'select', operand: selection.operand, field: selection.field, testOnly: true });
  },
  'member:all:2': (p, o, t, a) => quantifier(p, o, t!, a, 'all'),
  'member:exists:2': (p, o, t, a) => quantifier(p, o, t!, a, 'exists'),
  'member:exists_one:2': (p, o, t, a) => quantifier(p, o, t!, a, 'exists_one'),
  'member:map:2': (p, o, t, a) => mapMacro(p, o, t!, a[0]!, undefined, a[1]!),
  'member:map:3': (p, o, t, a) => mapMacro(p, o, t!, a[0]!, a[1], a[2]!),
  'member:filter:2': (p, o, t, [v, filter]) => {
    const name = iterName(v!);
    const step = p.call(o, '_?_:_', [
      filter!,
      p.call(o, '_+_', [p.accu(o), p.node(o, { kind: 'list', elements: [v!], optionalIndices: [] })]),
      p.accu(o),
    ]);
    return p.comprehension(o, t!, name, undefined, p.emptyList(o), p.bool(o, true), step, p.accu(o));
  },
  'member:all:3': (p, o, t, a) => quantifier(p, o, t!, a, 'all'),
  'member:exists:3': (p, o, t, a) => quantifier(p, o, t!, a, 'exists'),
  'member:existsOne:3': (p, o, t, a) => quantifier(p, o, t!, a, 'exists_one'),
  'member:transformList:3': (p, o, t, [k, v, fn]) => transformList(p, o, t!, k!, v!, undefined, fn!),
  'member:transformList:4': (p, o, t, [k, v, filter, fn]) => transformList(p, o, t!, k!, v!, filter, fn!),
  'member:transformMap:3': (p, o, t, [k, v, fn]) => transformMap(p, o, t!, k!, v!, undefined, fn!),
  'member:transformMap:4': (p, o, t, [k, v, filter, fn]) => transformMap(p, o, t!, k!, v!, filter, fn!),
};

function iterName(e: Expr, message = 'argument is not an identifier'): string {
  if (e.kind !== 'ident') fail(e.offset, message);
  if (e.name === ACCUMULATOR || e.name === '__result__')
    fail(e.offset, 'iteration variable overwrites accumulator variable');
  return e.name;
}

function quantifier(p: Parser, o: number, target: Expr, args: readonly Expr[], kind: string): Expr {
  const two = args.length === 3;
  const name = iterName(args[0]!, 'argument must be a simple name');
  const name2 = two ? iterName(args[1]!, 'argument must be a simple name') : undefined;
  const predicate = args.at(-1)!;
  if (kind === 'all')
    return p.comprehension(
      o,
      target,
      name,
      name2,
      p.bool(o, true),
      p.call(o, '@not_strictly_false', [p.accu(o)]),
      p.call(o, '_&&_', [p.accu(o), predicate]),
      p.accu(o),
    );
  if (kind === 'exists')
    return p.comprehension(
      o,
      target,
      name,
      name2,
      p.bool(o, false),
      p.call(o, '@not_strictly_false', [p.call(o, '!_', [p.accu(o)])]),
      p.call(o, '_||_', [p.accu(o), predicate]),
      p.accu(o),
    );
  const one = () => p.node(o, { kind: 'literal', literal: { type: 'int', value: 1n } });
  return p.comprehension(
    o,
    target,
    name,
    name2,
    p.node(o, { kind: 'literal', literal: { type: 'int', value: 0n } }),
    p.bool(o, true),
    p.call(o, '_?_:_', [predicate, p.call(o, '_+_', [p.accu(o), one()]), p.accu(o)]),
    p.call(o, '_==_', [p.accu(o), one()]),
  );
}

function mapMacro(p: Parser, o: number, target: Expr, v: Expr, filter: Expr | undefined, fn: Expr): Expr {
  const name = iterName(v);
  let step = p.call(o, '_+_', [p.accu(o), p.node(o, { kind: 'list', elements: [fn], optionalIndices: [] })]);
  if (filter) step = p.call(o, '_?_:_', [filter, step, p.accu(o)]);
  return p.comprehension(o, target, name, undefined, p.emptyList(o), p.bool(o, true), step, p.accu(o));
}

function transformList(p: Parser, o: number, t: Expr, k: Expr, v: Expr, filter: Expr | undefined, fn: Expr): Expr {
  let step = p.call(o, '_+_', [p.accu(o), p.node(o, { kind: 'list', elements: [fn], optionalIndices: [] })]);
  if (filter) step = p.call(o, '_?_:_', [filter, step, p.accu(o)]);
  return p.comprehension(o, t, iterName(k), iterName(v), p.emptyList(o), p.bool(o, true), step, p.accu(o));
}

function transformMap(p: Parser, o: number, t: Expr, k: Expr, v: Expr, filter: Expr | undefined, fn: Expr): Expr {
  let step = p.call(o, 'cel.@mapInsert', [p.accu(o), k, fn]);
  if (filter) step = p.call(o, '_?_:_', [filter, step, p.accu(o)]);
  const init = p.node(o, { kind: 'map', entries: [] });
  return p.comprehension(o, t, iterName(k), iterName(v), init, p.bool(o, true), step, p.accu(o));
}

export class Parser {
  private nextId = 1;
  private at = 0;
  private readonly tokens: Token[];

  constructor(source: string) {
    this.tokens = tokenize(source);
  }

  node(offset: number, body: object): Expr {
    return { id: this.nextId++, offset, ...body } as unknown as Expr;
  }
  call(offset: number, fn: string, args: Expr[], target?: Expr): Expr {
    return this.node(offset, target ? { kind: 'call', fn, target, args } : { kind: 'call', fn, args });
  }
  accu(offset: number): Expr {
    return this.node(offset, { kind: 'ident', name: ACCUMULATOR });
  }
  bool(offset: number, value: boolean): Expr {
    return this.node(offset, { kind: 'literal', literal: { type: 'bool', value } });
  }
  emptyList(offset: number): Expr {
    return this.node(offset, { kind: 'list', elements: [], optionalIndices: [] });
  }
  comprehension(
    offset: number,
    iterRange: Expr,
    iterVar: string,
    iterVar2: string | undefined,
    accuInit: Expr,
    loopCondition: Expr,
    loopStep: Expr,
    result: Expr,
  ): Expr {
    const body = { kind: 'comprehension', iterVar, iterRange, accuVar: ACCUMULATOR, accuInit, loopCondition };
    return this.node(offset, { ...body, loopStep, result, ...(iterVar2 ? { iterVar2 } : {}) } as const);
  }

  private peek(): Token {
    return this.tokens[this.at]!;
  }
  private is(text: string): boolean {
    const t = this.peek();
    return t.kind === 'punct' && t.text === text;
  }
  private take(): Token {
    return this.tokens[this.at++]!;
  }
  private expect(text: string): Token {
    if (!this.is(text)) {
      const t = this.peek();
      fail(t.offset, `mismatched input '${t.text}' expecting '${text}'`);
    }
    return this.take();
  }

  parseAll(): Expr {
    const expr = this.expr();
    const t = this.peek();
    if (t.kind !== 'eof') fail(t.offset, `extraneous input '${t.text}' expecting <EOF>`);
    return expr;
  }

  private expr(): Expr {
    const condition = this.logical('||', () => this.logical('&&', () => this.relation()));
    if (!this.is('?')) return condition;
    const op = this.take();
    const truthy = this.logical('||', () => this.logical('&&', () => this.relation()));
    this.expect(':');
    const falsy = this.expr();
    return this.call(op.offset, '_?_:_', [condition, truthy, falsy]);
  }

  private logical(symbol: '&&' | '||', operand: () => Expr): Expr {
    const terms = [operand()];
    const ops: number[] = [];
    while (this.is(symbol)) {
      ops.push(this.take().offset);
      terms.push(operand());
    }
    if (ops.length === 0) return terms[0]!;
    const fn = symbol === '&&' ? '_&&_' : '_||_';
    const balanced = (lo: number, hi: number): Expr => {
      const mid = Math.floor((lo + hi + 1) / 2);
      const left = mid === lo ? terms[mid]! : balanced(lo, mid - 1);
      const right = mid === hi ? terms[mid + 1]! : balanced(mid + 1, hi);
      return this.call(ops[mid]!, fn, [left, right]);
    };
    return balanced(0, ops.length - 1);
  }

  private binary(symbols: readonly string[], operand: () => Expr, names: Record<string, string>): Expr {
    let left = operand();
    for (;;) {
      const t = this.peek();
      const symbol = t.kind === 'punct' ? t.text : t.kind === 'ident' && t.text === 'in' ? 'in' : '';
      if (!symbols.includes(symbol)) return left;
      this.take();
      left = this.call(t.offset, names[symbol]!, [left, operand()]);
    }
  }

  private relation(): Expr {
    const names = { '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_', '==': '_==_', '!=': '_!=_', in: '@in' };
    return this.binary(Object.keys(names), () => this.addition(), names);
  }
  private addition(): Expr {
    return this.binary(['+', '-'], () => this.multiplication(), { '+': '_+_', '-': '_-_' });
  }
  private multiplication(): Expr {
    return this.binary(['*', '/', '%'], () => this.unary(), { '*': '_*_', '/': '_/_', '%': '_%_' });
  }

  private unary(): Expr {
    for (const [symbol, fn] of [
      ['!', '!_'],
      ['-', '-_'],
    ] as const) {
      if (!this.is(symbol)) continue;
      const next = this.tokens[this.at + 1]!;
      if (symbol === '-' && ['int', 'double'].includes(next.kind) && next.offset === this.peek().offset + 1) break;
      const first = this.peek().offset;
      let count = 0;
      while (this.is(symbol)) {
        this.take();
        count += 1;
      }
      const operand = this.member();
      return count % 2 === 0 ? operand : this.call(first, fn, [operand]);
    }
    return this.member();
  }

  private member(): Expr {
    let expr = this.primary();
    for (;;) {
      if (this.is('.')) {
        const dot = this.take();
        const optional = this.is('?') ? this.take() : undefined;
        const name = this.take();
        if (name.kind !== 'ident') fail(name.offset, `mismatched input '${name.text}' expecting IDENTIFIER`);
        if (!optional && this.is('(')) {
          const open = this.take();
          expr = this.callOrMacro(open.offset, name.text, expr, this.args(')'));
        } else if (optional) {
          const field = this.node(name.offset, { kind: 'literal', literal: { type: 'string', value: name.text } });
          expr = this.call(dot.offset, '_?._', [expr, field]);
        } else expr = this.node(dot.offset, { kind: 'select', operand: expr, field: name.text, testOnly: false });
      } else if (this.is('[')) {
        const open = this.take();
        const optional = this.is('?') ? this.take() : undefined;
        const index = this.expr();
        this.expect(']');
        expr = this.call(open.offset, optional ? '_[?_]' : '_[_]', [expr, index]);
      } else if (this.is('{') && (expr.kind === 'ident' || expr.kind === 'select') && this.typeName(expr)) {
        expr = this.structure(this.typeName(expr)!);
      } else return expr;
    }
  }

  private typeName(e: Expr): string | undefined {
    if (e.kind === 'ident') return e.name;
    if (e.kind === 'select' && !e.testOnly) {
      const prefix = this.typeName(e.operand);
      return prefix === undefined ? undefined : `${prefix}.${e.field}`;
    }
    return undefined;
  }

  private structure(typeName: string): Expr {
    const open = this.expect('{');
    const fields: StructField[] = [];
    while (!this.is('}')) {
      const optional = this.is('?') ? !!this.take() : false;
      const name = this.take();
      if (name.kind !== 'ident') fail(name.offset, `mismatched input '${name.text}' expecting IDENTIFIER`);
      const colon = this.expect(':');
      fields.push({ id: this.nextId++, offset: colon.offset, name: name.text, value: this.expr(), optional });
      if (!this.is(',')) break;
      this.take();
    }
    this.expect('}');
    return this.node(open.offset, { kind: 'struct', typeName, fields });
  }

  private args(close: string): Expr[] {
    const args: Expr[] = [];
    while (!this.is(close)) {
      args.push(this.expr());
      if (!this.is(',')) break;
      this.take();
    }
    this.expect(close);
    return args;
  }

  private callOrMacro(offset: number, fn: string, target: Expr | undefined, args: Expr[]): Expr {
    const macro = MACROS[`${target ? 'member' : 'global'}:${fn}:${args.length}`];
    if (macro) return macro(this, offset, target, args);
    return this.call(offset, fn, args, target);
  }

  private primary(): Expr {
    const t = this.take();
    if (t.value) return this.node(t.offset, { kind: 'literal', literal: t.value });
    if (t.kind === 'punct' && t.text === '-') {
      const n = this.take();
      const literal = n.value!;
      const negated: Literal =
        literal.type === 'int'
          ? { type: 'int', value: -literal.value }
          : { type: 'double', value: -(literal as { value: number }).value };
      return this.node(t.offset, { kind: 'literal', literal: negated });
    }
    if (t.kind === 'ident' || (t.kind === 'punct' && t.text === '.' && this.peek().kind === 'ident')) {
      const leading = t.text === '.' ? '.' : '';
      const name = leading ? this.take() : t;
      const literal = { true: true, false: false }[name.text];
      if (!leading && literal !== undefined)
        return this.node(t.offset, { kind: 'literal', literal: { type: 'bool', value: literal } });
      if (!leading && name.text === 'null') return this.node(t.offset, { kind: 'literal', literal: { type: 'null' } });
      if (RESERVED.has(name.text) || name.text === 'in') fail(t.offset, `reserved identifier: ${name.text}`);
      if (this.is('(')) {
        const open = this.take();
        return this.callOrMacro(open.offset, leading + name.text, undefined, this.args(')'));
      }
      return this.node(t.offset, { kind: 'ident', name: leading + name.text });
    }
    if (t.kind === 'punct' && t.text === '(') {
      const inner = this.expr();
      this.expect(')');
      return inner;
    }
    if (t.kind === 'punct' && t.text === '[') return this.list(t.offset);
    if (t.kind === 'punct' && t.text === '{') return this.map(t.offset);
    return fail(t.offset, t.kind === 'eof' ? `mismatched input '<EOF>'` : `mismatched input '${t.text}'`);
  }

  private list(offset: number): Expr {
    const elements: Expr[] = [];
    const optionalIndices: number[] = [];
    while (!this.is(']')) {
      if (this.is('?')) {
        this.take();
        optionalIndices.push(elements.length);
      }
      elements.push(this.expr());
      if (!this.is(',')) break;
      this.take();
    }
    this.expect(']');
    return this.node(offset, { kind: 'list', elements, optionalIndices });
  }

  private map(offset: number): Expr {
    const entries: MapEntry[] = [];
    while (!this.is('}')) {
      const optional = this.is('?') ? !!this.take() : false;
      const key = this.expr();
      const colon = this.expect(':');
      entries.push({ id: this.nextId++, offset: colon.offset, key, value: this.expr(), optional });
      if (!this.is(',')) break;
      this.take();
    }
    this.expect('}');
    return this.node(offset, { kind: 'map', entries });
  }
}

/** Parses an expression, or throws a CelSyntaxError with the offset of the problem. */
export function parseCel(source: string): Expr {
  return new Parser(source).parseAll();
}
