// Evaluates a compiled expression and counts its runtime cost as cel-go's cost tracker does: one per
// identifier and field selection (none for a presence test), none for literals or for list literals
// of constants (cel-go folds them, and `in` on such a list is a set lookup), ten for another list
// literal, thirty for a map literal, and per call the standard library's cost (string traversals and
// regex matches sized by their operands, `in` on a list by its size, one otherwise). `&&`, `||` and
// the ternary cost nothing themselves and short-circuit; comprehensions run their condition and step
// per element. Errors are values, absorbed by `&&` and `||` as CEL's logic defines.
import { ACCUMULATOR, type Expr, type ExprOf, type Literal } from './cel-ast.js';
import { formatType, type CelType } from './cel-types.js';
import { compileRe2 } from './re2-pattern.js';

export class CelUint {
  constructor(readonly value: bigint) {}
}
export class CelOptional {
  constructor(readonly value?: CelValue) {}
}
export class CelTypeValue {
  constructor(readonly type: CelType) {}
}
/** An evaluation error: a value in CEL, which `&&` and `||` may absorb. */
export class CelEvalError extends Error {}
export type CelValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | CelUint
  | CelOptional
  | CelTypeValue
  | CelValue[]
  | Map<CelValue, CelValue>
  | { readonly [key: string]: CelValue };

/** Raised when a call exceeds its cost limit, as cel-go cancels the evaluation. */
export class CostLimitExceeded extends Error {}

export interface Activation {
  resolve(name: string): CelValue | CelEvalError | undefined;
}

const isPlainObject = (v: unknown): v is Record<string, CelValue> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/**
 * A JSON value (a pod as the API server reads it) as CEL values: whole numbers become int, and a field
 * set to null is absent, as the API server's typed decoding of a pod drops it.
 */
export function fromJson(value: unknown): CelValue {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(fromJson);
  if (isPlainObject(value))
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, fromJson(v)]),
    );
  return value as CelValue;
}

function sizeOf(v: CelValue | CelEvalError): number {
  if (typeof v === 'string') return [...v].length;
  if (v instanceof Uint8Array) return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (isPlainObject(v)) return Object.keys(v).length;
  if (v instanceof CelOptional && v.value !== undefined) return sizeOf(v.value);
  return 1;
}

function typeName(v: CelValue): string {
  if (v === null) return 'null_type';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof CelUint) return 'uint';
  if (v instanceof CelOptional) return 'optional_type';
  if (v instanceof CelTypeValue) return 'type';
  if (Array.isArray(v)) return 'list';
  return 'map';
}

function numeric(v: CelValue): number | undefined {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return v;
  if (v instanceof CelUint) return Number(v.value);
  return undefined;
}

export function celEquals(a: CelValue, b: CelValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) return na === nb;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => celEquals(x, b[i]!));
  if (a instanceof CelOptional && b instanceof CelOptional)
    return a.value === undefined || b.value === undefined ? a.value === b.value : celEquals(a.value, b.value);
  if (a instanceof CelTypeValue && b instanceof CelTypeValue) return formatType(a.type) === formatType(b.type);
  const ea = entries(a);
  const eb = entries(b);
  if (!ea || !eb || ea.length !== eb.length) return false;
  return ea.every(([k, v]) => {
    const other = lookup(b, k);
    return other !== undefined && celEquals(v, other);
  });
}

function entries(v: CelValue): [CelValue, CelValue][] | undefined {
  if (v instanceof Map) return [...v.entries()];
  if (isPlainObject(v)) return Object.entries(v);
  return undefined;
}

function lookup(container: CelValue, key: CelValue): CelValue | undefined {
  if (container instanceof Map) {
    for (const [k, v] of container) if (celEquals(k, key)) return v;
    return undefined;
  }
  if (isPlainObject(container) && typeof key === 'string')
    return Object.prototype.hasOwnProperty.call(container, key) ? container[key] : undefined;
  return undefined;
}

function compare(a: CelValue, b: CelValue): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na < nb ? -1 : na > nb ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw new CelEvalError(`no such overload: ${typeName(a)} < ${typeName(b)}`);
}

const INT_MAX = 2n ** 63n - 1n;
const INT_MIN = -(2n ** 63n);
function checkedInt(v: bigint): bigint {
  if (v > INT_MAX || v < INT_MIN) throw new CelEvalError('integer overflow');
  return v;
}

const traverse = (size: number) => Math.ceil(size * 0.1);

type Fn = (args: CelValue[]) => CelValue;
const str = (v: CelValue): string => {
  if (typeof v !== 'string') throw new CelEvalError(`no such overload: expected string, got ${typeName(v)}`);
  return v;
};
const list = (v: CelValue): CelValue[] => {
  if (!Array.isArray(v)) throw new CelEvalError(`no such overload: expected list, got ${typeName(v)}`);
  return v;
};
const int = (v: CelValue): bigint => {
  if (typeof v !== 'bigint') throw new CelEvalError(`no such overload: expected int, got ${typeName(v)}`);
  return v;
};

function add([a, b]: CelValue[]): CelValue {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkedInt(a + b);
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (a instanceof CelUint && b instanceof CelUint) return new CelUint(a.value + b.value);
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  throw new CelEvalError(`no such overload: ${typeName(a!)} + ${typeName(b!)}`);
}

function arithmetic(op: (x: bigint, y: bigint) => bigint, dop: (x: number, y: number) => number): Fn {
  return ([a, b]) => {
    if (typeof a === 'bigint' && typeof b === 'bigint') return checkedInt(op(a, b));
    if (typeof a === 'number' && typeof b === 'number') return dop(a, b);
    if (a instanceof CelUint && b instanceof CelUint) return new CelUint(op(a.value, b.value));
    throw new CelEvalError('no such overload');
  };
}

function toInt(v: CelValue): bigint {
  if (typeof v === 'bigint') return v;
  if (v instanceof CelUint) return checkedInt(v.value);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new CelEvalError('integer overflow');
    return checkedInt(BigInt(Math.trunc(v)));
  }
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) return checkedInt(BigInt(v));
  throw new CelEvalError(`cannot convert ${typeName(v)} to int`);
}

function toStringValue(v: CelValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return String(v);
  if (v instanceof CelUint) return String(v.value);
  if (v instanceof Uint8Array) return new TextDecoder('utf-8', { fatal: true }).decode(v);
  throw new CelEvalError(`cannot convert ${typeName(v)} to string`);
}

const FUNCTIONS: Record<string, Fn> = {
  '_+_': add,
  '_-_': arithmetic(
    (x, y) => x - y,
    (x, y) => x - y,
  ),
  '_*_': arithmetic(
    (x, y) => x * y,
    (x, y) => x * y,
  ),
  '_/_': arithmetic(
    (x, y) => {
      if (y === 0n) throw new CelEvalError('division by zero');
      return x / y;
    },
    (x, y) => x / y,
  ),
  '_%_': arithmetic(
    (x, y) => {
      if (y === 0n) throw new CelEvalError('modulus by zero');
      return x % y;
    },
    (x, y) => x % y,
  ),
  '-_': ([a]) => (typeof a === 'bigint' ? checkedInt(-a) : -(a as number)),
  '!_': ([a]) => {
    if (typeof a !== 'boolean') throw new CelEvalError('no such overload: !_');
    return !a;
  },
  '@not_strictly_false': ([a]) => a !== false,
  '_==_': ([a, b]) => celEquals(a!, b!),
  '_!=_': ([a, b]) => !celEquals(a!, b!),
  '_<_': ([a, b]) => compare(a!, b!) < 0,
  '_<=_': ([a, b]) => compare(a!, b!) <= 0,
  '_>_': ([a, b]) => compare(a!, b!) > 0,
  '_>=_': ([a, b]) => compare(a!, b!) >= 0,
  '@in': ([a, b]) => (Array.isArray(b) ? b.some((x) => celEquals(x, a!)) : lookup(b!, a!) !== undefined),
  '_[_]': ([c, k]) => {
    if (Array.isArray(c)) {
      const i = Number(toInt(k!));
      if (i < 0 || i >= c.length) throw new CelEvalError(`index out of bounds: ${i}`);
      return c[i]!;
    }
    const found = lookup(c!, k!);
    if (found === undefined) throw new CelEvalError(`no such key: ${toStringValue(k!)}`);
    return found;
  },
  '_[?_]': ([c, k]) => {
    const container = c instanceof CelOptional ? c.value : c;
    if (container === undefined) return new CelOptional();
    if (Array.isArray(container)) {
      const i = Number(toInt(k!));
      return new CelOptional(i >= 0 && i < container.length ? container[i] : undefined);
    }
    return new CelOptional(lookup(container, k!));
  },
  size: ([v]) => BigInt(sizeOf(v!)),
  int: ([v]) => toInt(v!),
  uint: ([v]) => {
    const i = toInt(v!);
    if (i < 0n) throw new CelEvalError('unsigned integer overflow');
    return new CelUint(i);
  },
  double: ([v]) => numeric(v!) ?? Number(str(v!)),
  string: ([v]) => toStringValue(v!),
  bool: ([v]) => {
    if (typeof v === 'boolean') return v;
    if (['true', 'True', 'TRUE', 't', '1'].includes(str(v!))) return true;
    if (['false', 'False', 'FALSE', 'f', '0'].includes(str(v!))) return false;
    throw new CelEvalError(`cannot convert ${typeName(v!)} to bool`);
  },
  dyn: ([v]) => v!,
  contains: ([s, t]) => str(s!).includes(str(t!)),
  startsWith: ([s, t]) => str(s!).startsWith(str(t!)),
  endsWith: ([s, t]) => str(s!).endsWith(str(t!)),
  matches: ([s, p]) => compileRe2(str(p!)).test(str(s!)),
  lowerAscii: ([s]) => str(s!).replace(/[A-Z]/g, (c) => c.toLowerCase()),
  upperAscii: ([s]) => str(s!).replace(/[a-z]/g, (c) => c.toUpperCase()),
  trim: ([s]) => str(s!).trim(),
  split: ([s, sep]) => str(s!).split(str(sep!)),
  join: ([l, sep]) =>
    list(l!)
      .map(str)
      .join(sep === undefined ? '' : str(sep)),
  replace: ([s, from, to]) => str(s!).replaceAll(str(from!), str(to!)),
  substring: ([s, a, b]) => [...str(s!)].slice(Number(int(a!)), b === undefined ? undefined : Number(int(b))).join(''),
  charAt: ([s, i]) => [...str(s!)][Number(int(i!))] ?? '',
  indexOf: ([c, x]) => BigInt(typeof c === 'string' ? c.indexOf(str(x!)) : list(c!).findIndex((e) => celEquals(e, x!))),
  lastIndexOf: ([c, x]) =>
    BigInt(typeof c === 'string' ? c.lastIndexOf(str(x!)) : list(c!).findLastIndex((e) => celEquals(e, x!))),
  find: ([s, p]) => compileRe2(str(p!)).exec(str(s!))?.[0] ?? '',
  findAll: ([s, p]) => [...str(s!).matchAll(new RegExp(compileRe2(str(p!)), 'gu'))].map((m) => m[0]),
  isSorted: ([l]) => list(l!).every((x, i, all) => i === 0 || compare(all[i - 1]!, x) <= 0),
  sum: ([l]) => list(l!).reduce((a, b) => add([a, b]), 0n),
  min: ([l]) => list(l!).reduce((a, b) => (compare(a, b) <= 0 ? a : b)),
  max: ([l]) => list(l!).reduce((a, b) => (compare(a, b) >= 0 ? a : b)),
  distinct: ([l]) => list(l!).filter((x, i, all) => all.findIndex((y) => celEquals(x, y)) === i),
  reverse: ([l]) => [...list(l!)].reverse(),
  sort: ([l]) => [...list(l!)].sort(compare),
  slice: ([l, a, b]) => list(l!).slice(Number(int(a!)), Number(int(b!))),
  flatten: ([l]) => list(l!).flatMap((x) => (Array.isArray(x) ? x : [x])),
  first: ([l]) => new CelOptional(list(l!)[0]),
  last: ([l]) => new CelOptional(list(l!).at(-1)),
  'lists.range': ([n]) => Array.from({ length: Number(int(n!)) }, (_, i) => BigInt(i)),
  'sets.contains': ([a, b]) => list(b!).every((x) => list(a!).some((y) => celEquals(x, y))),
  'sets.equivalent': ([a, b]) =>
    list(b!).every((x) => list(a!).some((y) => celEquals(x, y))) &&
    list(a!).every((x) => list(b!).some((y) => celEquals(x, y))),
  'sets.intersects': ([a, b]) => list(b!).some((x) => list(a!).some((y) => celEquals(x, y))),
  'optional.of': ([v]) => new CelOptional(v),
  'optional.none': () => new CelOptional(),
  'optional.ofNonZeroValue': ([v]) =>
    new CelOptional(v === null || v === false || v === 0n || v === 0 || v === '' || sizeOf(v!) === 0 ? undefined : v),
  value: ([o]) => {
    if (!(o instanceof CelOptional) || o.value === undefined) throw new CelEvalError('optional.none() dereference');
    return o.value;
  },
  hasValue: ([o]) => (o as CelOptional).value !== undefined,
  orValue: ([o, v]) => (o as CelOptional).value ?? v!,
  or: ([o, p]) => ((o as CelOptional).value !== undefined ? o! : p!),
  'cel.@mapInsert': ([m, k, v]) => new Map([...(entries(m!) ?? []), [k!, v!]]),
};

/** The runtime cost of a call to the standard library (cel-go's CostTracker.costCall). */
function callCost(fn: string, args: CelValue[]): number {
  const [a, b] = args;
  switch (fn) {
    case 'startsWith':
    case 'endsWith':
      return traverse(sizeOf(a!));
    case '@in':
      return Array.isArray(b) ? sizeOf(b) : 1;
    case '_==_':
    case '_!=_':
      return traverse(Math.min(sizeOf(a!), sizeOf(b!)));
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      return typeof a === 'string' ? traverse(Math.min(sizeOf(a), sizeOf(b!))) : 1;
    case '_+_':
      return typeof a === 'string' ? traverse(sizeOf(a) + sizeOf(b!)) : 1;
    case 'matches':
    case 'find':
    case 'findAll':
      return traverse(1 + sizeOf(a!)) * Math.ceil(sizeOf(b!) * 0.25);
    case 'contains':
      return traverse(sizeOf(a!)) * traverse(sizeOf(b!));
    case 'lowerAscii':
    case 'upperAscii':
    case 'trim':
    case 'substring':
    case 'charAt':
    case 'split':
    case 'replace':
    case 'indexOf':
    case 'lastIndexOf':
      return typeof a === 'string' ? traverse(sizeOf(a)) + 1 : sizeOf(a!) + 1;
    case 'join':
    case 'isSorted':
    case 'sum':
    case 'min':
    case 'max':
    case 'distinct':
    case 'reverse':
    case 'sort':
    case 'flatten':
    case 'sets.contains':
    case 'sets.equivalent':
    case 'sets.intersects':
      return sizeOf(a!) * Math.max(1, args.length > 1 && Array.isArray(b) ? sizeOf(b) : 1);
    default:
      return 1;
  }
}

function isConstant(e: Expr): boolean {
  if (e.kind === 'literal') return true;
  if (e.kind === 'list') return e.optionalIndices.length === 0 && e.elements.every(isConstant);
  if (e.kind === 'map') return e.entries.every((x) => !x.optional && isConstant(x.key) && isConstant(x.value));
  return false;
}

function literalValue(l: Literal): CelValue {
  switch (l.type) {
    case 'null':
      return null;
    case 'uint':
      return new CelUint(l.value);
    default:
      return l.value;
  }
}

type Result = CelValue | CelEvalError;

/** One evaluation: its cost so far, and the limit past which it is cancelled. */
export class Evaluation {
  cost = 0;
  constructor(
    private readonly limit: number,
    private readonly types: ReadonlyMap<number, CelType>,
  ) {}

  private charge(amount: number): void {
    this.cost += amount;
    if (this.cost > this.limit) throw new CostLimitExceeded('operation cancelled: actual cost limit exceeded');
  }

  run(e: Expr, scope: Activation): Result {
    switch (e.kind) {
      case 'literal':
        return literalValue(e.literal);
      case 'ident': {
        this.charge(1);
        const value = scope.resolve(e.name);
        if (value !== undefined) return value;
        const declared = this.types.get(e.id);
        if (declared?.kind === 'type') return new CelTypeValue(declared.params[0] ?? declared);
        return new CelEvalError(`no such attribute: ${e.name}`);
      }
      case 'select':
        return this.select(e, scope);
      case 'list': {
        const values: CelValue[] = [];
        for (const [i, element] of e.elements.entries()) {
          const v = this.run(element, scope);
          if (v instanceof CelEvalError) return v;
          if (!e.optionalIndices.includes(i)) values.push(v);
          else if ((v as CelOptional).value !== undefined) values.push((v as CelOptional).value!);
        }
        if (!isConstant(e)) this.charge(10);
        return values;
      }
      case 'map': {
        const map = new Map<CelValue, CelValue>();
        for (const entry of e.entries) {
          const k = this.run(entry.key, scope);
          if (k instanceof CelEvalError) return k;
          const v = this.run(entry.value, scope);
          if (v instanceof CelEvalError) return v;
          if (!entry.optional) map.set(k, v);
          else if ((v as CelOptional).value !== undefined) map.set(k, (v as CelOptional).value!);
        }
        if (!isConstant(e)) this.charge(30);
        return map;
      }
      case 'struct':
        return new CelEvalError(`message creation is not modeled: ${e.typeName}`);
      case 'call':
        return this.call(e, scope);
      case 'comprehension':
        return this.comprehension(e, scope);
    }
  }

  private select(e: ExprOf<'select'>, scope: Activation): Result {
    const operand = this.run(e.operand, scope);
    if (operand instanceof CelEvalError) return operand;
    if (!e.testOnly) this.charge(1);
    if (operand === null || typeof operand !== 'object' || Array.isArray(operand) || operand instanceof Uint8Array)
      return new CelEvalError(`type '${typeName(operand)}' does not support field selection`);
    const found = lookup(operand, e.field);
    if (e.testOnly) return found !== undefined;
    return found === undefined ? new CelEvalError(`no such key: ${e.field}`) : found;
  }

  private call(e: ExprOf<'call'>, scope: Activation): Result {
    if (e.fn === '_&&_' || e.fn === '_||_') return this.logic(e, scope);
    if (e.fn === '_?_:_') {
      const condition = this.run(e.args[0]!, scope);
      if (condition instanceof CelEvalError) return condition;
      if (typeof condition !== 'boolean') return new CelEvalError('no such overload: _?_:_');
      return this.run(e.args[condition ? 1 : 2]!, scope);
    }
    if (e.fn === '_?._') {
      const operand = this.run(e.args[0]!, scope);
      if (operand instanceof CelEvalError) return operand;
      this.charge(1);
      const inner = operand instanceof CelOptional ? operand.value : operand;
      const field = ((e.args[1] as ExprOf<'literal'>).literal as { value: string }).value;
      return new CelOptional(inner === undefined ? undefined : lookup(inner, field));
    }
    const qualified = e.target && this.qualifiedFunction(e);
    const operands = [...(e.target && !qualified ? [e.target] : []), ...e.args];
    const values: CelValue[] = [];
    for (const operand of operands) {
      const v = this.run(operand, scope);
      if (v instanceof CelEvalError) return v;
      values.push(v);
    }
    const name = qualified ?? e.fn;
    const fn = FUNCTIONS[name];
    if (e.fn === '@in' && e.args[1] && isConstant(e.args[1]) && e.args[1].kind === 'list') {
      return fn!(values);
    }
    if (name === 'type') return new CelTypeValue({ kind: typeName(values[0]!) as CelType['kind'], params: [] });
    if (!fn) return new CelEvalError(`function '${name}' is declared but its evaluation is not modeled`);
    try {
      const result = fn(values);
      this.charge(callCost(name, values));
      return result;
    } catch (error) {
      if (error instanceof CelEvalError) return error;
      if (error instanceof CostLimitExceeded) throw error;
      return new CelEvalError(String(error));
    }
  }

  private qualifiedFunction(e: ExprOf<'call'>): string | undefined {
    const target = e.target!;
    if (target.kind === 'ident' && FUNCTIONS[`${target.name}.${e.fn}`]) return `${target.name}.${e.fn}`;
    return undefined;
  }

  private logic(e: ExprOf<'call'>, scope: Activation): Result {
    const and = e.fn === '_&&_';
    const left = this.run(e.args[0]!, scope);
    if (left === !and) return left;
    const right = this.run(e.args[1]!, scope);
    if (right === !and) return right;
    if (left instanceof CelEvalError) return left;
    if (right instanceof CelEvalError) return right;
    if (typeof left !== 'boolean' || typeof right !== 'boolean') return new CelEvalError(`no such overload: ${e.fn}`);
    return and;
  }

  private comprehension(e: ExprOf<'comprehension'>, scope: Activation): Result {
    const range = this.run(e.iterRange, scope);
    if (range instanceof CelEvalError) return range;
    let items: [CelValue, CelValue][];
    if (Array.isArray(range)) items = range.map((v, i) => (e.iterVar2 ? [BigInt(i), v] : [v, v]));
    else {
      const all = entries(range);
      if (!all) return new CelEvalError(`cannot iterate over ${typeName(range)}`);
      items = all;
    }
    let accu = this.run(e.accuInit, scope);
    const frame = new Map<string, Result>();
    const inner: Activation = {
      resolve: (name) => {
        if (frame.has(name)) return frame.get(name);
        return scope.resolve(name);
      },
    };
    const read = (x: Expr): Result => {
      const v = this.run(x, inner);
      return v;
    };
    for (const [first, second] of items) {
      frame.set(ACCUMULATOR, accu);
      frame.set(e.iterVar, first);
      if (e.iterVar2) frame.set(e.iterVar2, second);
      const condition = read(e.loopCondition);
      if (typeof condition === 'boolean' && !condition) break;
      accu = read(e.loopStep);
      frame.set(ACCUMULATOR, accu);
    }
    frame.set(ACCUMULATOR, accu);
    frame.delete(e.iterVar);
    if (e.iterVar2) frame.delete(e.iterVar2);
    return read(e.result);
  }
}
