// The production dependencies are exactly the libraries the compiled code loads: the image and the
// command's tarball install them and nothing else. A library needed only for its types, or only by the
// tests (fast-json-patch), is a devDependency; a library the code loads is never left to the dev install.
// The lock holds no version of node-forge with the advisories published against versions before 1.4.0.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import ts from 'typescript';
import { REPO_ROOT } from '../helpers/tools.js';

interface PackageJson {
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
}
interface Lock {
  packages: Record<string, { version: string; dev?: boolean }>;
}

const read = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');
const manifest = (): PackageJson => JSON.parse(read('package.json')) as PackageJson;
const lock = (): Lock => JSON.parse(read('package-lock.json')) as Lock;

/** The packages a JavaScript file loads (static and dynamic imports, require): comments and types are not. */
function packagesLoadedBy(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((file) => file.fileName)
    .filter((name) => !name.startsWith('.') && !name.startsWith('node:'))
    .map((name) =>
      name
        .split('/')
        .slice(0, name.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

test('the production dependencies are exactly the libraries the compiled code loads', (t) => {
  const dist = join(REPO_ROOT, 'dist/src');
  const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  t.true(files.length > 50, `${files.length} compiled files`);
  const loaded = new Set(files.flatMap((file) => packagesLoadedBy(readFileSync(join(dist, file), 'utf8'))));
  // The optional ones are production dependencies the image leaves out (the code loads them on demand).
  const production = { ...manifest().dependencies, ...manifest().optionalDependencies };
  t.deepEqual([...loaded].sort(), Object.keys(production).sort());
});

test('the reading of imports sees code and skips comments and erased types', (t) => {
  const text = [
    "// import { a } from 'commented';",
    "import { b } from '@scope/lib/sub';",
    "import './local.js';",
    "import fs from 'node:fs';",
    "const c = await import('dynamic');",
    "export * from 'reexported';",
  ].join('\n');
  t.deepEqual(packagesLoadedBy(text).sort(), ['@scope/lib', 'dynamic', 'reexported']);
});

test('fast-json-patch is a devDependency: the runtime takes only its type', (t) => {
  const { dependencies, devDependencies } = manifest();
  t.false('fast-json-patch' in dependencies);
  t.true('fast-json-patch' in devDependencies);
  t.is(lock().packages['node_modules/fast-json-patch']?.dev, true, 'the lock installs it with the dev tools only');
  const source = read('src/injection/json-patch.ts');
  const imports = source.split('\n').filter((line) => /\bfrom ['"]fast-json-patch['"]/.test(line));
  t.deepEqual(imports, ["import type { Operation } from 'fast-json-patch';"]);
  t.false(/\bapplyPatch\b/.test(source), 'the tests apply patches (test/helpers/json-patch.ts)');
});

test('node-forge is 1.4.0 or later, in the lock and as the least version package.json accepts', (t) => {
  const atLeast = (version: string, floor: readonly number[]): boolean => {
    const parts = version.split('.').map(Number);
    const at = parts.findIndex((part, index) => part !== floor[index]);
    return at < 0 || parts[at]! > floor[at]!;
  };
  const locked = lock().packages['node_modules/node-forge']!.version;
  t.true(atLeast(locked, [1, 4, 0]), `locked ${locked}`);
  const range = manifest().dependencies['node-forge']!;
  t.regex(range, /^\^\d+\.\d+\.\d+$/);
  t.true(atLeast(range.slice(1), [1, 4, 0]), `package.json ${range}`);
  t.false(atLeast('1.3.3', [1, 4, 0]), 'the comparison refuses the version with the advisories');
  t.true(atLeast('2.0.0', [1, 4, 0]));
});
