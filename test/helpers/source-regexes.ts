// Every regular expression written in a part of src/, found by TypeScript's own parser: literals with
// their flags, and each `new RegExp(...)`, whose pattern is only known when it is one string literal.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './repo-root.js';

export interface SourceRegex {
  /** `src/...ts:line`. */
  readonly where: string;
  readonly source: string;
  readonly flags: string;
}

export interface SourceRegexes {
  readonly patterns: readonly SourceRegex[];
  /** Each `new RegExp` whose pattern is computed, which no check here can read. */
  readonly computed: readonly string[];
}

/** The .ts files a path of src/ names: the file itself, or every one under the directory. */
const filesOf = (path: string): string[] =>
  path.endsWith('.ts')
    ? [path]
    : readdirSync(join(REPO_ROOT, 'src', path), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => `${path}/${file}`);

/** The patterns of the files of src/ given, each a .ts file or a directory (all the files under it). */
export function sourceRegexes(paths: readonly string[]): SourceRegexes {
  const patterns: SourceRegex[] = [];
  const computed: string[] = [];
  for (const file of paths.flatMap(filesOf)) {
    const text = readFileSync(join(REPO_ROOT, 'src', file), 'utf8');
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node): string =>
      `src/${file}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node)) {
        const literal = node.text;
        const end = literal.lastIndexOf('/');
        patterns.push({ where: where(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
      } else if (ts.isNewExpression(node) && node.expression.getText() === 'RegExp') {
        const [pattern, flags] = node.arguments ?? [];
        const flagText = flags === undefined ? '' : ts.isStringLiteral(flags) ? flags.text : null;
        if (pattern && ts.isStringLiteral(pattern) && flagText !== null)
          patterns.push({ where: where(node), source: pattern.text, flags: flagText });
        else computed.push(where(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return { patterns, computed };
}
