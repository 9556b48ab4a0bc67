// The CEL syntax tree, after macros are expanded, as cel-go's parser builds it: each node has an id and
// the offset of the token cel-go locates it at (an operator's symbol, a call's opening parenthesis, a
// selection's dot), so that errors point where the API server's do.

export type Literal =
  | { readonly type: 'int'; readonly value: bigint }
  | { readonly type: 'uint'; readonly value: bigint }
  | { readonly type: 'double'; readonly value: number }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'bytes'; readonly value: Uint8Array }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'null' };

interface Node {
  readonly id: number;
  readonly offset: number;
}

export interface MapEntry extends Node {
  readonly key: Expr;
  readonly value: Expr;
  readonly optional: boolean;
}

export interface StructField extends Node {
  readonly name: string;
  readonly value: Expr;
  readonly optional: boolean;
}

export type Expr = Node &
  (
    | { readonly kind: 'literal'; readonly literal: Literal }
    | { readonly kind: 'ident'; readonly name: string }
    | { readonly kind: 'select'; readonly operand: Expr; readonly field: string; readonly testOnly: boolean }
    | { readonly kind: 'call'; readonly fn: string; readonly target?: Expr; readonly args: readonly Expr[] }
    | { readonly kind: 'list'; readonly elements: readonly Expr[]; readonly optionalIndices: readonly number[] }
    | { readonly kind: 'map'; readonly entries: readonly MapEntry[] }
    | { readonly kind: 'struct'; readonly typeName: string; readonly fields: readonly StructField[] }
    | {
        readonly kind: 'comprehension';
        readonly iterVar: string;
        readonly iterVar2?: string;
        readonly iterRange: Expr;
        readonly accuVar: string;
        readonly accuInit: Expr;
        readonly loopCondition: Expr;
        readonly loopStep: Expr;
        readonly result: Expr;
      }
  );

export type ExprOf<K extends Expr['kind']> = Extract<Expr, { kind: K }>;

/** The name macros give their accumulator. */
export const ACCUMULATOR = '@result';

/** A problem at a place in the source, reported as cel-go reports it. */
export interface CelIssue {
  readonly offset: number;
  readonly message: string;
}

/** cel-go's display of issues: `ERROR: <input>:line:col: message`, the line, and a caret under the column. */
export function formatIssues(source: string, issues: readonly CelIssue[]): string {
  const sorted = [...issues].sort((a, b) => a.offset - b.offset);
  return sorted
    .map((issue) => {
      const before = source.slice(0, issue.offset);
      const line = before.split('\n').length;
      const lineStart = before.lastIndexOf('\n') + 1;
      const column = issue.offset - lineStart;
      const text = source.split('\n')[line - 1]!.replaceAll('\t', ' ');
      const marks = [...text.slice(0, column)].map((c) => (c.length > 1 || c.charCodeAt(0) > 0x7f ? '\uff0e' : '.'));
      return `ERROR: <input>:${line}:${column + 1}: ${issue.message}\n | ${text}\n | ${marks.join('')}^`;
    })
    .join('\n');
}
