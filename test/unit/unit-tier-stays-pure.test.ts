// The unit tier stays pure by what it imports: no file of test/unit, nor any test helper it reaches,
// imports a module that runs programs, opens sockets or waits on a timer. This sees imports only, and
// runs in every tier; test/helpers/unit-tier-guard.ts sees every call, in the unit tier.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from '../helpers/repo-root.js';

/** Built-in modules a pure test has no use for. */
const IMPURE_MODULES = new Set([
  'child_process',
  'cluster',
  'dgram',
  'http',
  'http2',
  'https',
  'net',
  'timers/promises',
  'tls',
  'worker_threads',
]);

/** Every module a source imports for its values (`import type` brings none), by the name it is given. */
function valueImports(source: string): string[] {
  const named = [...source.matchAll(/^import\s+(?!type\b)[^;]*?\bfrom\s+'([^']+)'/gm)].map((match) => match[1]!);
  const bare = [...source.matchAll(/^import\s+'([^']+)'/gm)].map((match) => match[1]!);
  return [...named, ...bare];
}

const impure = (specifier: string): boolean => IMPURE_MODULES.has(specifier.replace(/^node:/, ''));

/** The test files and helpers a file reaches through its relative imports under test/. */
function reachedTestSources(start: string): string[] {
  const testRoot = join(REPO_ROOT, 'test');
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of valueImports(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      if (target.startsWith(`${testRoot}/`) && existsSync(target)) pending.push(target);
    }
  }
  return [...seen];
}

test('a source is caught importing a program runner, a socket or a timer, and a type import is not', (t) => {
  const source = [
    "import { spawnSync } from 'node:child_process';",
    "import net from 'net';",
    "import {\n  setTimeout as sleep,\n} from 'node:timers/promises';",
    "import type { Server } from 'node:http';",
    "import { readFileSync } from 'node:fs';",
  ].join('\n');
  t.deepEqual(valueImports(source).filter(impure), ['node:child_process', 'net', 'node:timers/promises']);
});

test('no unit test, nor a helper it reaches, imports a program runner, a socket or a timer', (t) => {
  const unit = join(REPO_ROOT, 'test/unit');
  const files = readdirSync(unit, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(unit, file));
  t.true(files.length > 40);
  const breaches = [...new Set(files.flatMap(reachedTestSources))].flatMap((file) =>
    valueImports(readFileSync(file, 'utf8'))
      .filter(impure)
      .map((specifier) => `${relative(REPO_ROOT, file)} imports ${specifier}`),
  );
  t.deepEqual(breaches, []);
});
