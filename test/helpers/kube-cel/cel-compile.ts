// Compiling an expression as Kubernetes' CEL environment does: parse, type-check, then the AST
// validators Kubernetes adds (homogeneous aggregate literals, valid regex, duration and timestamp
// literals), which run only on an expression that type-checked.
import { formatIssues, type CelIssue, type Expr } from './cel-ast.js';
import { checkExpression, type CheckEnvironment } from './cel-checker.js';
import { CelSyntaxError, parseCel } from './cel-parser.js';
import { formatType, isExactType, type CelType } from './cel-types.js';
import { compileRe2 } from './re2-pattern.js';

export interface Compiled {
  readonly source: string;
  readonly ast?: Expr;
  readonly type?: CelType;
  readonly types?: ReadonlyMap<number, CelType>;
  /** cel-go's issues, empty when the expression compiled. */
  readonly issues: readonly CelIssue[];
  /** The issues as cel-go displays them (`ERROR: <input>:1:5: ...`), or '' when there are none. */
  readonly message: string;
}

function children(e: Expr): Expr[] {
  switch (e.kind) {
    case 'select':
      return [e.operand];
    case 'call':
      return [...(e.target ? [e.target] : []), ...e.args];
    case 'list':
      return [...e.elements];
    case 'map':
      return e.entries.flatMap((entry) => [entry.key, entry.value]);
    case 'struct':
      return e.fields.map((f) => f.value);
    case 'comprehension':
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result];
    default:
      return [];
  }
}

/** Every node of the tree, each with the chain of calls above it. */
function walk(e: Expr, visit: (node: Expr, callers: readonly string[]) => void, callers: string[] = []): void {
  visit(e, callers);
  const inner = e.kind === 'call' ? [...callers, e.fn] : callers;
  for (const child of children(e)) walk(child, visit, inner);
}

function validateHomogeneous(root: Expr, types: ReadonlyMap<number, CelType>, issues: CelIssue[]): void {
  const typeOf = (e: Expr, optional: boolean) => {
    const t = types.get(e.id)!;
    return optional ? t.params[0]! : t;
  };
  walk(root, (e, callers) => {
    // String formatting takes a list of mixed values, so literals within format() are exempt.
    if (callers.includes('format')) return;
    if (e.kind === 'list') {
      let first: CelType | undefined;
      for (const [i, element] of e.elements.entries()) {
        const t = typeOf(element, e.optionalIndices.includes(i));
        if (!first) first = t;
        else if (!isExactType(first, t)) {
          issues.push(mismatch(element.offset, first, t));
          break;
        }
      }
    }
    if (e.kind === 'map') {
      let key: CelType | undefined;
      let value: CelType | undefined;
      for (const entry of e.entries) {
        const kt = typeOf(entry.key, false);
        const vt = typeOf(entry.value, entry.optional);
        if (!key || !value) {
          [key, value] = [kt, vt];
          continue;
        }
        if (!isExactType(key, kt)) issues.push(mismatch(entry.key.offset, key, kt));
        if (!isExactType(value, vt)) issues.push(mismatch(entry.value.offset, value, vt));
      }
    }
  });
}

const mismatch = (offset: number, expected: CelType, actual: CelType): CelIssue => ({
  offset,
  message: `expected type '${formatType(expected)}' but found '${formatType(actual)}'`,
});

const DURATION = /^-?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$|^0$/;

function validateLiterals(root: Expr, issues: CelIssue[]): void {
  walk(root, (e) => {
    if (e.kind !== 'call' || e.args.length === 0) return;
    const arg = e.args[0]!;
    if (arg.kind !== 'literal' || arg.literal.type !== 'string') return;
    const value = arg.literal.value;
    let valid = true;
    if (e.fn === 'matches') {
      try {
        compileRe2(value);
      } catch {
        valid = false;
      }
    } else if (e.fn === 'duration' && !e.target) valid = DURATION.test(value);
    else if (e.fn === 'timestamp' && !e.target) valid = !Number.isNaN(Date.parse(value)) && /T/.test(value);
    else return;
    if (!valid) issues.push({ offset: arg.offset, message: `invalid ${e.fn} argument` });
  });
}

/** Parses, checks and validates an expression in an environment. */
export function compileExpression(env: CheckEnvironment, source: string): Compiled {
  let ast: Expr;
  try {
    ast = parseCel(source);
  } catch (error) {
    if (!(error instanceof CelSyntaxError)) throw error;
    return { source, issues: [error.issue], message: formatIssues(source, [error.issue]) };
  }
  const checked = checkExpression(env, ast);
  const issues = [...checked.issues];
  if (issues.length === 0) {
    validateLiterals(ast, issues);
    validateHomogeneous(ast, checked.types, issues);
  }
  return { source, ast, type: checked.type, types: checked.types, issues, message: formatIssues(source, issues) };
}
