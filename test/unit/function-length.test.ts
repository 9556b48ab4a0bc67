// Every function in src/ fits on a screen, so that a reader can hold it at once: one longer than the
// limit is split along its steps into named functions.
import { join } from 'node:path';
import test from 'ava';
import { functionLengths, treeFunctionLengths } from '../../tools/function-lengths.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

const MAX_LINES = 80;
test(`no function in src/ is longer than ${MAX_LINES} lines`, (t) => {
  const long = treeFunctionLengths(join(REPO_ROOT, 'src'))
    .filter((found) => found.lines > MAX_LINES)
    .map((found) => `${found.name} (src/${found.where}): ${found.lines} lines`);
  t.deepEqual(long, []);
});

test('the count covers declarations, methods and arrow functions, from first line to last', (t) => {
  const text = [
    'function a() {',
    '  return 1;',
    '}',
    'class B {',
    '  m() {',
    '    const f = () =>',
    '      2;',
    '  }',
    '}',
  ].join('\n');
  const found = functionLengths('x.ts', text);
  t.deepEqual(found, [
    { name: 'a', where: 'x.ts:1', lines: 3 },
    { name: 'm', where: 'x.ts:5', lines: 4 },
    { name: 'f', where: 'x.ts:6', lines: 2 },
  ]);
});
