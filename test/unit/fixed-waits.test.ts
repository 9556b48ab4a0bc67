// Tests wait on events, not on the clock: a fixed pause of 100 ms or more is allowed only where no
// event exists, at most three of them in the whole suite, each with a comment saying why.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from '../helpers/repo-root.js';

/** `await sleep(N)`, `await setTimeout(N)` (timers/promises) and a promise around setTimeout(resolve, N). */
const FIXED_WAIT =
  /await (?:sleep\((\d[\d_]*)\)|setTimeout\((\d[\d_]*)\)|new Promise\(\(?\w+\)? => setTimeout\(\w+, (\d[\d_]*)\)\))/g;

function fixedWaits(): { where: string; ms: number; explained: boolean }[] {
  const dir = join(REPO_ROOT, 'test');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.startsWith('fixtures') && file !== 'unit/fixed-waits.test.ts')
    .flatMap((file) => {
      const lines = readFileSync(join(dir, file), 'utf8').split('\n');
      return lines.flatMap((line, index) =>
        [...line.matchAll(FIXED_WAIT)].map((match) => ({
          where: `test/${file}:${index + 1}`,
          ms: Number((match[1] ?? match[2] ?? match[3])!.replaceAll('_', '')),
          explained: lines.slice(Math.max(0, index - 3), index).some((above) => /no event/.test(above)),
        })),
      );
    })
    .filter((wait) => wait.ms >= 100);
}

test('at most three fixed waits of 100 ms or more, each saying why no event exists', (t) => {
  const waits = fixedWaits();
  t.true(waits.length <= 3, waits.map((w) => `${w.where} (${w.ms} ms)`).join('\n'));
  t.deepEqual(
    waits.filter((wait) => !wait.explained).map((wait) => wait.where),
    [],
  );
});

test('the count sees each form a fixed wait takes', (t) => {
  const forms = [
    'await sleep(300);',
    'await setTimeout(1_500);',
    'await new Promise((resolve) => setTimeout(resolve, 700));',
    'await new Promise((r) => setTimeout(r, 100));',
  ];
  t.deepEqual(
    forms.map((form) => [...form.matchAll(FIXED_WAIT)].length),
    [1, 1, 1, 1],
  );
});
