// How long each function in a source tree is, in lines from its first to its last: a function longer
// than a screen is one a reader cannot hold at once, and the repository test keeps them short.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface FunctionLength {
  /** The function's name, or the name of what it is assigned to; `(anonymous)` when it has none. */
  readonly name: string;
  /** `path:line` under the tree, with `/` separators. */
  readonly where: string;
  readonly lines: number;
}

/** Every function, method and arrow function in one module's text, with its length. */
export function functionLengths(path: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node), where: `${path}:${first + 1}`, lines: last - first + 1 });
    }
    node.forEachChild(visit);
  };
  source.forEachChild(visit);
  return found;
}

/** The functions of every module under a directory, read from disk. */
export function treeFunctionLengths(dir: string): FunctionLength[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .sort()
    .flatMap((name) => functionLengths(name.replace(/\\/g, '/'), readFileSync(join(dir, name), 'utf8')));
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name !== undefined && (ts.isIdentifier(named.name) || ts.isPrivateIdentifier(named.name)))
    return named.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return '(anonymous)';
}
