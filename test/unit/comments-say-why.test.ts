// Comments in src/ say why, in the present tense; figures and what a profile or a run showed belong
// in commit messages and docs/performance.md. This catches the forms such history takes; figures in
// ms, s and KiB also state settings and limits, so those are left to review.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from '../helpers/repo-root.js';

const COMMENT = /^\s*(\/\/|\*|\/\*)/;
const MEASUREMENT = new RegExp(
  [
    String.raw`\b\d+(\.\d+)? ?(µs|MB)\b`,
    String.raw`(?<![%\x60])\b\d+(\.\d+)?%(?!\w)`,
    String.raw`\bin the profile\b`,
    String.raw`\bprofiles? showed\b`,
    String.raw`\b(was|were|we) measured\b`,
    String.raw`\bused to\b (be|take|cost)`,
    String.raw`\b(doubles|halves|triples)\b`,
  ].join('|'),
  'i',
);

test('no comment in src/ carries a measurement or a past observation', (t) => {
  const dir = join(REPO_ROOT, 'src');
  const found = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .map((line, index) => ({ line, where: `src/${file}:${index + 1}` }))
        .filter(({ line }) => COMMENT.test(line) && MEASUREMENT.test(line))
        .map(({ where, line }) => `${where}: ${line.trim()}`),
    );
  t.deepEqual(found, []);
});

test('the check catches the forms seen before', (t) => {
  for (const line of [
    '// adds and removes eight listeners per response. Both showed in the profile.)',
    '// every line (about 2 KiB of garbage) costs 14 µs',
    ' * which took the process to 501 MB',
    '// the cache cut CPU by 12%',
    "// survives into the old generation, which doubles the garbage collector's work.",
  ])
    t.true(MEASUREMENT.test(line), line);
});
