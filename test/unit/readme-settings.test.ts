// The README's short settings table is written by hand, for a newcomer (the few settings most used,
// grouped), and checked here against the registry: every name in it is a setting, and every default
// it gives is the registry's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { SETTING_LIST } from '../../src/settings/all-settings.js';
import { defaultTextOf } from '../../src/config/setting-definition.js';
import { REPO_ROOT } from '../helpers/repo-root.js';

const BY_NAME = new Map(SETTING_LIST.map((setting) => [setting.env as string, setting]));

function settingsTable(): { names: string[]; defaults: string }[] {
  const lines = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').split('\n');
  const header = lines.findIndex((line) => /^\| variable\s+\| default\s+\| meaning/.test(line));
  const rows: { names: string[]; defaults: string }[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [names = '', defaults = ''] = line
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    rows.push({ names: [...names.matchAll(/`(SFD_[A-Z0-9_]+)`/g)].map((m) => m[1]!), defaults });
  }
  return rows;
}

test("the README's settings table names settings, with the registry's defaults", (t) => {
  const rows = settingsTable();
  t.true(rows.length >= 5, 'the table is found');
  for (const { names, defaults } of rows) {
    t.true(names.length > 0);
    for (const name of names) t.truthy(BY_NAME.get(name), `${name} is a setting`);
    const expected = names.map((name) => defaultTextOf(BY_NAME.get(name)!));
    const written = defaults === '(none)' ? [] : [...defaults.matchAll(/`([^`]*)`/g)].map((m) => m[1]);
    if (written.length === 0)
      t.deepEqual(
        expected.filter((value) => value !== undefined),
        [],
        names.join(', '),
      );
    else t.deepEqual(written, expected, names.join(', '));
  }
});
