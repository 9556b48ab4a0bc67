// What `npm test` checks for before it runs: each missing command's Debian package, named once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { missingPackages, TEST_TOOLS } from '../../../tools/test-tools.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

test('nothing is missing when every command is found', (t) => {
  t.deepEqual(
    missingPackages(() => true),
    [],
  );
});

test('each missing command names its package, and a package carrying two commands is named once', (t) => {
  t.deepEqual(
    missingPackages((command) => ['openssl', 'bash', 'zsh', 'fish'].includes(command)),
    ['prometheus', 'yamllint'],
  );
  t.deepEqual(
    missingPackages((command) => command !== 'promtool'),
    ['prometheus'],
  );
});

test('every tool a test requires is in the list, with the same package', (t) => {
  const sources = readdirSync(join(REPO_ROOT, 'test'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  );
  const required = new Map<string, string>();
  for (const file of sources) {
    for (const [, command, pkg] of readFileSync(join(REPO_ROOT, 'test', file), 'utf8').matchAll(
      /requireTool\('([^']+)', '([^']+)'\)/g,
    )) {
      required.set(command!, pkg!);
    }
  }
  t.true(required.size >= 3);
  for (const [command, pkg] of required) t.is(TEST_TOOLS[command], pkg, command);
});
