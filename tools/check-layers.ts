// `npm run layers`: checks src/ against the rules in layers.ts (which part imports which, which module
// owns each library, who reads `process`) and that no module, nor any folder, imports itself back
// through others.
// Imports are read with TypeScript's own pre-processor, type-only ones included: a circle of types is
// still a circle for the reader. Prints each breach and exits 1; prints nothing when all hold.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ALLOWED_IMPORTS, LIBRARY_OWNERS, PROCESS_OWNER, SLICES } from './layers.js';

export interface Module {
  /** Path under src/, with `/` separators. */
  readonly path: string;
  readonly text: string;
}

/** Every breach of the rules, one line each. */
export function layerBreaches(modules: readonly Module[]): string[] {
  const breaches: string[] = [];
  const imports = new Map<string, string[]>();
  for (const module of modules) {
    const local: string[] = [];
    for (const { fileName } of ts.preProcessFile(module.text, true, true).importedFiles) {
      if (fileName.startsWith('.')) {
        const target = normalize(join(dirname(module.path), fileName))
          .replace(/\\/g, '/')
          .replace(/\.js$/, '.ts');
        local.push(target);
        const from = partOf(module.path);
        const to = partOf(target);
        const allowed = ALLOWED_IMPORTS[from];
        if (allowed === undefined) breaches.push(`${module.path}: src/${from} has no layering rule in tools/layers.ts`);
        else if (from !== to && !allowed.includes(to))
          breaches.push(`${module.path} imports ${target}: ${from} may not import ${to}`);
      } else {
        const library = libraryName(fileName);
        const owners = LIBRARY_OWNERS[library];
        if (
          owners &&
          !owners.some((owner) => (owner.endsWith('/') ? module.path.startsWith(owner) : module.path === owner))
        ) {
          breaches.push(`${module.path} imports ${library}, which only ${owners.join(', ')} may import`);
        }
      }
    }
    imports.set(module.path, local);
    if (module.path !== PROCESS_OWNER && readsProcess(module))
      breaches.push(`${module.path} reads process; only ${PROCESS_OWNER} may`);
  }
  for (const cycle of importCycles(imports)) breaches.push(`import cycle: ${cycle.join(' -> ')}`);
  for (const cycle of importCycles(folderImports(imports)))
    breaches.push(`import cycle between folders: ${cycle.join(' -> ')}`);
  return breaches;
}

/**
 * Which folders import which, from the modules' imports: a folder is read as one unit, so two folders
 * that import each other are a circle even when no single module is on it. A file at the top of src/
 * stands for itself, as in the layering.
 */
export function folderImports(imports: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const module of imports.keys()) folders.set(folderOf(module), new Set());
  for (const [module, targets] of imports) {
    const from = folderOf(module);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from && folders.has(to)) folders.get(from)!.add(to);
    }
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets].sort()]));
}

/** The folder a module is in, or the file itself at the top of src/. */
function folderOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : path;
}

/**
 * Each allowance in the rules that no import uses, one line each: the rules say exactly what the code
 * does, so a new dependency between parts is a decision made in tools/layers.ts, not one already open.
 */
export function unusedAllowances(modules: readonly Module[]): string[] {
  const used = new Set<string>();
  for (const module of modules)
    for (const { fileName } of ts.preProcessFile(module.text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = normalize(join(dirname(module.path), fileName)).replace(/\\/g, '/');
      used.add(`${partOf(module.path)} ${partOf(target.replace(/\.js$/, '.ts'))}`);
    }
  return Object.entries(ALLOWED_IMPORTS).flatMap(([from, allowed]) =>
    allowed
      .filter((to) => !used.has(`${from} ${to}`))
      .map((to) => `tools/layers.ts allows src/${from} to import ${to}, and nothing there does: remove it`),
  );
}

/**
 * The directory a module is in, or the file itself at the top of src/. A slice whose stages are
 * layers of their own (SLICES) is split one level further: `injection/decide`, `injection/render`.
 */
export function partOf(path: string): string {
  const [top, stage, ...rest] = path.split('/');
  if (stage === undefined) return top!;
  return SLICES.includes(top!) && rest.length > 0 ? `${top}/${stage}` : top!;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function libraryName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Whether the module's code (not its comments or strings) names the global `process`. */
function readsProcess(module: Module): boolean {
  const source = ts.createSourceFile(module.path, module.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(node) && node.text === 'process') {
      const parent = node.parent;
      // A property or member named `process` is not the global.
      const isName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        ts.isPropertyAssignment(parent) ||
        ts.isPropertySignature(parent);
      if (!isName) found = true;
    }
    node.forEachChild(visit);
  };
  source.forEachChild(visit);
  return found;
}

/** Each circle of imports once, as the modules along it (Tarjan's strongly connected components). */
export function importCycles(imports: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const connect = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of imports.get(node) ?? []) {
      if (!imports.has(target)) continue;
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (imports.get(node) ?? []).includes(node)) cycles.push(component.reverse());
  };
  for (const node of [...imports.keys()].sort()) if (!index.has(node)) connect(node);
  return cycles;
}

/** The modules of a source tree, read from disk. */
export function readModules(srcDir: string): Module[] {
  return readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .sort()
    .map((name) => ({ path: name.replace(/\\/g, '/'), text: readFileSync(join(srcDir, name), 'utf8') }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const srcDir = fileURLToPath(new URL('../../src/', import.meta.url));
  const modules = readModules(srcDir);
  const breaches = [...layerBreaches(modules), ...unusedAllowances(modules)];
  for (const breach of breaches) process.stderr.write(`${breach}\n`);
  if (breaches.length > 0) {
    process.stderr.write(
      `${breaches.length} layering breach(es) in ${relative(process.cwd(), srcDir) || '.'}; the rules are in ` +
        `tools/layers.ts\n`,
    );
    process.exitCode = 1;
  }
}
