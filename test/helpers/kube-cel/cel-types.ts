// CEL's types as the checker sees them, with cel-go's rules for assigning one to another, unifying type
// parameters and formatting a type in an error message.

export type TypeKind =
  | 'bool'
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bytes'
  | 'null_type'
  | 'timestamp'
  | 'duration'
  | 'dyn'
  | 'any'
  | 'error'
  | 'type'
  | 'list'
  | 'map'
  | 'struct'
  | 'opaque'
  | 'param';

export interface CelType {
  readonly kind: TypeKind;
  /** The name of a struct, an opaque type or a type parameter. */
  readonly name?: string;
  readonly params: readonly CelType[];
}

const simple = (kind: TypeKind): CelType => ({ kind, params: [] });
export const BOOL = simple('bool');
export const INT = simple('int');
export const UINT = simple('uint');
export const DOUBLE = simple('double');
export const STRING = simple('string');
export const BYTES = simple('bytes');
export const NULL = simple('null_type');
export const TIMESTAMP = simple('timestamp');
export const DURATION = simple('duration');
export const DYN = simple('dyn');
export const ANY = simple('any');
export const ERROR = simple('error');
export const TYPE = simple('type');

export const listOf = (elem: CelType): CelType => ({ kind: 'list', params: [elem] });
export const mapOf = (key: CelType, value: CelType): CelType => ({ kind: 'map', params: [key, value] });
export const typeOf = (param: CelType): CelType => ({ kind: 'type', params: [param] });
export const structType = (name: string): CelType => ({ kind: 'struct', name, params: [] });
export const opaqueType = (name: string, ...params: CelType[]): CelType => ({ kind: 'opaque', name, params });
export const optionalOf = (param: CelType): CelType => opaqueType('optional_type', param);
export const typeParam = (name: string): CelType => ({ kind: 'param', name, params: [] });

const DECLARED_NAMES: Partial<Record<TypeKind, string>> = { list: 'list', map: 'map', type: 'type', dyn: 'dyn' };

/** The name cel-go's DeclaredTypeName gives a type. */
function declaredName(t: CelType): string {
  return t.name ?? DECLARED_NAMES[t.kind] ?? t.kind;
}

/** A type as cel-go's FormatCELType writes it in a message: list(int), map(string, dyn), null, !error!. */
export function formatType(t: CelType): string {
  if (t.kind === 'error') return '!error!';
  if (t.kind === 'null_type') return 'null';
  if (t.kind === 'param') return t.name!;
  if (t.params.length === 0) return declaredName(t);
  return `${declaredName(t)}(${t.params.map(formatType).join(', ')})`;
}

/** The same type: kind, name and parameters (cel-go's IsExactType and IsEquivalentType). */
export function isExactType(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.name !== b.name || a.params.length !== b.params.length) return false;
  return a.params.every((p, i) => isExactType(p, b.params[i]!));
}

export const isDyn = (t: CelType): boolean => t.kind === 'dyn' || t.kind === 'any';
export const isDynOrError = (t: CelType): boolean => isDyn(t) || t.kind === 'error';
export const isOptional = (t: CelType): boolean => t.kind === 'opaque' && t.name === 'optional_type';

/** Type parameter substitutions found so far, copied on each attempt and kept only when it succeeds. */
export class Mapping {
  constructor(private readonly entries = new Map<string, CelType>()) {}
  find(t: CelType): CelType | undefined {
    return t.kind === 'param' ? this.entries.get(t.name!) : undefined;
  }
  add(from: CelType, to: CelType): void {
    this.entries.set(from.name!, to);
  }
  copy(): Mapping {
    return new Mapping(new Map(this.entries));
  }
}

function isEqualOrLessSpecific(a: CelType, b: CelType): boolean {
  if (isDyn(a) || a.kind === 'param') return true;
  if (isDyn(b) || b.kind === 'param') return false;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'opaque':
      return (
        a.name === b.name &&
        a.params.length === b.params.length &&
        a.params.every((p, i) => isEqualOrLessSpecific(p, b.params[i]!))
      );
    case 'list':
    case 'map':
      return a.params.every((p, i) => isEqualOrLessSpecific(p, b.params[i]!));
    case 'type':
      return true;
    default:
      return isExactType(a, b);
  }
}

/** Of two assignable types, the less specific one. */
export function mostGeneral(a: CelType, b: CelType): CelType {
  return isEqualOrLessSpecific(a, b) ? a : b;
}

function notReferencedIn(m: Mapping, t: CelType, within: CelType): boolean {
  if (isExactType(t, within)) return false;
  if (within.kind === 'param') {
    const sub = m.find(within);
    return sub === undefined || notReferencedIn(m, t, sub);
  }
  return within.params.every((p) => notReferencedIn(m, t, p));
}

function isValidTypeSubstitution(m: Mapping, t1: CelType, t2: CelType): [valid: boolean, hasSub: boolean] {
  if (isExactType(t1, t2)) return [true, true];
  const sub = m.find(t2);
  if (sub) {
    if (isExactType(t1, sub)) return [true, true];
    if (assignable(m, t1, sub)) {
      const general = mostGeneral(t1, sub);
      if (notReferencedIn(m, t2, general)) m.add(t2, general);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(m, t2, t1)) {
    m.add(t2, t1);
    return [true, false];
  }
  return [false, false];
}

const LEGACY_NULLABLE = new Set<TypeKind>(['opaque', 'struct', 'any', 'duration', 'timestamp']);

/** Whether a value of type t2 may stand where t1 is expected, recording substitutions in m. */
function assignable(m: Mapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === 'param') {
    const [valid, hasSub] = isValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (hasSub) return false;
  }
  if (t1.kind === 'param') return isValidTypeSubstitution(m, t2, t1)[0];
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'null_type') return LEGACY_NULLABLE.has(t2.kind) || t2.kind === 'null_type';
  if (t2.kind === 'null_type') return LEGACY_NULLABLE.has(t1.kind);
  switch (t1.kind) {
    case 'type':
      return t2.kind === 'type';
    case 'opaque':
    case 'list':
    case 'map':
      return (
        t1.kind === t2.kind &&
        t1.name === t2.name &&
        t1.params.length === t2.params.length &&
        t1.params.every((p, i) => assignable(m, p, t2.params[i]!))
      );
    default:
      return isExactType(t1, t2);
  }
}

/** cel-go's isAssignable: a new mapping when t2 may stand for t1, else undefined. */
export function isAssignable(m: Mapping, t1: CelType, t2: CelType): Mapping | undefined {
  const copy = m.copy();
  return assignable(copy, t1, t2) ? copy : undefined;
}

export function isAssignableList(m: Mapping, l1: readonly CelType[], l2: readonly CelType[]): Mapping | undefined {
  if (l1.length !== l2.length) return undefined;
  const copy = m.copy();
  return l1.every((t, i) => assignable(copy, t, l2[i]!)) ? copy : undefined;
}

/** Replaces the type parameters the mapping resolves; the unresolved ones become dyn when asked. */
export function substitute(m: Mapping, t: CelType, paramToDyn: boolean): CelType {
  const sub = m.find(t);
  if (sub) return substitute(m, sub, paramToDyn);
  if (paramToDyn && t.kind === 'param') return DYN;
  if (t.params.length === 0) return t;
  return { ...t, params: t.params.map((p) => substitute(m, p, paramToDyn)) };
}
