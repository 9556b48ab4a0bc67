// cel-go's type checker, rule for rule: identifiers and functions resolve against declarations, each call
// picks every overload its argument types are assignable to (type parameters unified as cel-go unifies
// them), `&&` and `||` want bool operands, comprehensions bind their variables, and a field of a declared
// object type must exist. Messages and locations are cel-go's.
import type { CelIssue, Expr, ExprOf } from './cel-ast.js';
import type { Overload } from './cel-declarations.js';
import {
  BOOL,
  DYN,
  ERROR,
  INT,
  Mapping,
  formatType,
  isAssignable,
  isAssignableList,
  isDyn,
  isDynOrError,
  isExactType,
  listOf,
  mapOf,
  mostGeneral,
  optionalOf,
  substitute,
  typeParam,
  type CelType,
} from './cel-types.js';

/** What an expression may refer to: variables, object types with their fields, and functions. */
export interface CheckEnvironment {
  readonly variables: ReadonlyMap<string, CelType>;
  readonly structs: ReadonlyMap<string, ReadonlyMap<string, CelType>>;
  readonly functions: ReadonlyMap<string, readonly Overload[]>;
}

export interface CheckResult {
  readonly issues: readonly CelIssue[];
  /** The expression's type, type parameters left unresolved turned to dyn. */
  readonly type: CelType;
  readonly types: ReadonlyMap<number, CelType>;
}

class Checker {
  private mappings = new Mapping();
  private readonly types = new Map<number, CelType>();
  readonly issues: CelIssue[] = [];
  private scopes: Map<string, CelType>[] = [];
  private freeVars = 0;

  constructor(private readonly env: CheckEnvironment) {}

  finish(root: Expr): CheckResult {
    for (const [id, t] of this.types) this.types.set(id, substitute(this.mappings, t, true));
    return { issues: this.issues, type: this.types.get(root.id) ?? ERROR, types: this.types };
  }

  private report(offset: number, message: string): void {
    this.issues.push({ offset, message });
  }
  private typeMismatch(e: { offset: number }, expected: CelType, actual: CelType): void {
    this.report(e.offset, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
  }
  private set(e: Expr, t: CelType): void {
    this.types.set(e.id, t);
  }
  private get(e: Expr): CelType {
    return this.types.get(e.id) ?? ERROR;
  }
  private assign(t1: CelType, t2: CelType): boolean {
    const next = isAssignable(this.mappings, t1, t2);
    if (next) this.mappings = next;
    return !!next;
  }
  private newTypeVar(): CelType {
    return typeParam(`_var${this.freeVars++}`);
  }
  private lookupIdent(name: string): CelType | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i]!.get(name);
      if (found) return found;
    }
    return this.env.variables.get(name.startsWith('.') ? name.slice(1) : name);
  }

  check(e: Expr): void {
    switch (e.kind) {
      case 'literal':
        return this.set(e, literalType(e));
      case 'ident': {
        const t = this.lookupIdent(e.name);
        if (t) return this.set(e, t);
        this.set(e, ERROR);
        return this.report(e.offset, `undeclared reference to '${e.name}' (in container '')`);
      }
      case 'select':
        return this.checkSelect(e);
      case 'call':
        return this.checkCall(e);
      case 'list':
        return this.checkList(e);
      case 'map':
        return this.checkMap(e);
      case 'struct':
        this.set(e, ERROR);
        return this.report(e.offset, `undeclared reference to '${e.typeName}' (in container '')`);
      case 'comprehension':
        return this.checkComprehension(e);
    }
  }

  private qualifiedName(e: Expr): string | undefined {
    if (e.kind === 'ident') return e.name;
    if (e.kind === 'select' && !e.testOnly) {
      const prefix = this.qualifiedName(e.operand);
      return prefix === undefined ? undefined : `${prefix}.${e.field}`;
    }
    return undefined;
  }

  private checkSelect(e: ExprOf<'select'>): void {
    const qualified = this.qualifiedName(e);
    if (qualified !== undefined && !this.scopes.some((s) => s.has(qualified.split('.')[0]!))) {
      const t = this.env.variables.get(qualified);
      if (t) return this.set(e, t);
    }
    const result = this.checkSelectField(e, e.operand, e.field, false);
    this.set(e, e.testOnly ? BOOL : substitute(this.mappings, result, false));
  }

  private checkSelectField(e: Expr, operand: Expr, field: string, optional: boolean): CelType {
    this.check(operand);
    const operandType = substitute(this.mappings, this.get(operand), false);
    const isOpt = operandType.kind === 'opaque' && operandType.name === 'optional_type';
    const target = isOpt ? operandType.params[0]! : operandType;
    let result: CelType = ERROR;
    if (target.kind === 'map') result = target.params[1]!;
    else if (target.kind === 'struct') {
      const fields = this.env.structs.get(target.name!);
      const fieldType = fields?.get(field);
      if (!fields) this.report(e.offset, `unexpected failed resolution of '${target.name}'`);
      else if (!fieldType) this.report(e.offset, `undefined field '${field}'`);
      else result = fieldType;
    } else if (target.kind === 'param') {
      this.assign(DYN, target);
      result = DYN;
    } else {
      if (!isDynOrError(target)) this.report(e.offset, `type '${formatType(target)}' does not support field selection`);
      result = DYN;
    }
    return isOpt || optional ? optionalOf(result) : result;
  }

  private checkCall(e: ExprOf<'call'>): void {
    if (e.fn === '_?._') {
      const [operand, field] = e.args;
      if (e.target || e.args.length !== 2 || field!.kind !== 'literal' || field!.literal.type !== 'string') {
        this.report(e.offset, 'unsupported optional field selection');
        return this.set(e, ERROR);
      }
      const result = this.checkSelectField(e, operand!, field!.literal.value, true);
      return this.set(e, substitute(this.mappings, result, false));
    }
    for (const arg of e.args) this.check(arg);
    if (!e.target) {
      const overloads = this.env.functions.get(e.fn);
      if (!overloads) {
        this.report(e.offset, `undeclared reference to '${e.fn}' (in container '')`);
        return this.set(e, ERROR);
      }
      return this.resolve(e, e.fn, overloads, undefined);
    }
    const prefix = this.qualifiedName(e.target);
    if (prefix !== undefined) {
      const qualified = this.env.functions.get(`${prefix}.${e.fn}`);
      if (qualified) return this.resolve(e, `${prefix}.${e.fn}`, qualified, undefined);
    }
    this.check(e.target);
    const overloads = this.env.functions.get(e.fn);
    if (!overloads) {
      this.report(e.offset, `undeclared reference to '${e.fn}' (in container '')`);
      return this.set(e, ERROR);
    }
    this.resolve(e, e.fn, overloads, e.target);
  }

  private resolve(e: ExprOf<'call'>, name: string, overloads: readonly Overload[], target: Expr | undefined): void {
    const argTypes = [...(target ? [target] : []), ...e.args].map((a) => this.get(a));
    const operands = [...(target ? [target] : []), ...e.args];
    let result: CelType | undefined;
    for (const overload of overloads) {
      if (overload.member !== !!target) continue;
      if (name === '_&&_' || name === '_||_') {
        let failed = false;
        argTypes.forEach((t, i) => {
          if (!this.assign(t, BOOL)) {
            this.typeMismatch(operands[i]!, BOOL, t);
            failed = true;
          }
        });
        return this.set(e, failed ? ERROR : BOOL);
      }
      const fresh = new Mapping();
      for (const p of overload.typeParams) fresh.add(typeParam(p), this.newTypeVar());
      const params = overload.args.map((t) => substitute(fresh, t, false));
      const next = isAssignableList(this.mappings, argTypes, params);
      if (!next) continue;
      this.mappings = next;
      const fnResult = substitute(this.mappings, substitute(fresh, overload.result, false), false);
      if (!result) result = fnResult;
      else if (!isDyn(result) && !isExactType(fnResult, result)) result = DYN;
    }
    if (result) return this.set(e, result);
    const shown = argTypes.map((t) => formatType(substitute(this.mappings, t, true)));
    const signature = target ? `${shown[0]}.(${shown.slice(1).join(', ')})` : `(${shown.join(', ')})`;
    this.report(e.offset, `found no matching overload for '${name}' applied to '${signature}'`);
    this.set(e, ERROR);
  }

  private join(e: Expr, previous: CelType | undefined, current: CelType): CelType {
    if (!previous) return current;
    if (this.assign(previous, current)) return mostGeneral(previous, current);
    this.typeMismatch(e, previous, current);
    return ERROR;
  }

  private unwrapOptional(e: Expr, t: CelType): CelType {
    if (t.kind === 'opaque' && t.name === 'optional_type') return t.params[0]!;
    if (!isDyn(t)) this.typeMismatch(e, optionalOf(t), t);
    return t;
  }

  private checkList(e: ExprOf<'list'>): void {
    let elemType: CelType | undefined;
    e.elements.forEach((element, i) => {
      this.check(element);
      let t = this.get(element);
      if (e.optionalIndices.includes(i)) t = this.unwrapOptional(element, t);
      elemType = this.join(element, elemType, t);
    });
    this.set(e, listOf(elemType ?? this.newTypeVar()));
  }

  private checkMap(e: ExprOf<'map'>): void {
    let keyType: CelType | undefined;
    let valueType: CelType | undefined;
    for (const entry of e.entries) {
      this.check(entry.key);
      keyType = this.join(entry.key, keyType, this.get(entry.key));
      this.check(entry.value);
      let t = this.get(entry.value);
      if (entry.optional) t = this.unwrapOptional(entry.value, t);
      valueType = this.join(entry.value, valueType, t);
    }
    this.set(e, mapOf(keyType ?? this.newTypeVar(), valueType ?? this.newTypeVar()));
  }

  private checkComprehension(e: ExprOf<'comprehension'>): void {
    this.check(e.iterRange);
    this.check(e.accuInit);
    const rangeType = substitute(this.mappings, this.get(e.iterRange), false);
    const accuType = this.get(e.accuInit);
    this.scopes.push(new Map([[e.accuVar, accuType]]));
    let varType: CelType;
    let var2Type: CelType | undefined;
    if (rangeType.kind === 'list') {
      varType = rangeType.params[0]!;
      if (e.iterVar2) [varType, var2Type] = [INT, varType];
    } else if (rangeType.kind === 'map') {
      varType = rangeType.params[0]!;
      if (e.iterVar2) var2Type = rangeType.params[1];
    } else if (rangeType.kind === 'dyn' || rangeType.kind === 'error' || rangeType.kind === 'param') {
      this.assign(DYN, rangeType);
      varType = DYN;
      if (e.iterVar2) var2Type = DYN;
    } else {
      this.report(
        e.iterRange.offset,
        `expression of type '${formatType(rangeType)}' cannot be range of a comprehension ` +
          '(must be list, map, or dynamic)',
      );
      varType = ERROR;
      if (e.iterVar2) var2Type = ERROR;
    }
    const loopScope = new Map([[e.iterVar, varType]]);
    if (e.iterVar2) loopScope.set(e.iterVar2, var2Type!);
    this.scopes.push(loopScope);
    this.check(e.loopCondition);
    this.assertType(e.loopCondition, BOOL);
    this.check(e.loopStep);
    this.assertType(e.loopStep, accuType);
    this.scopes.pop();
    this.check(e.result);
    this.scopes.pop();
    this.set(e, substitute(this.mappings, this.get(e.result), false));
  }

  private assertType(e: Expr, t: CelType): void {
    if (!this.assign(t, this.get(e))) this.typeMismatch(e, t, this.get(e));
  }
}

function literalType(e: ExprOf<'literal'>): CelType {
  const kind = e.literal.type === 'null' ? 'null_type' : e.literal.type;
  return { kind, params: [] };
}

/** Type-checks a parsed expression against the environment, as cel-go's checker does. */
export function checkExpression(env: CheckEnvironment, root: Expr): CheckResult {
  const checker = new Checker(env);
  checker.check(root);
  return checker.finish(root);
}
