// The chart README lists every value of values.yaml (its table is generated from the values' comments,
// and the generated-files test keeps it current): a value with no row, or a row for no value, fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/tools.js';

/** Every leaf of the values: a scalar, a list, or an empty map, by its dotted path. */
function leaves(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0)
    return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, prefix ? `${prefix}.${key}` : key));
}

test('the chart README has a row for every value, each with the default values.yaml gives', (t) => {
  const values = parse(readFileSync(join(REPO_ROOT, 'helm/sfd-sidecar/values.yaml'), 'utf8')) as unknown;
  const readme = readFileSync(join(REPO_ROOT, 'helm/sfd-sidecar/README.md'), 'utf8');
  const rows = [...readme.matchAll(/^\| `([^`]+)` \| `(.*?)` \| (.+) \|$/gm)].map((m) => ({
    path: m[1]!,
    value: JSON.parse(m[2]!) as unknown,
    description: m[3]!,
  }));
  for (const leaf of leaves(values)) {
    const row = rows.find((r) => leaf === r.path || leaf.startsWith(`${r.path}.`));
    t.truthy(row, `${leaf} has a row`);
  }
  for (const row of rows) {
    const value = row.path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown>)?.[key], values);
    t.deepEqual(row.value, value, `${row.path}: the default shown is the one in values.yaml`);
    t.true(row.description.length > 10, `${row.path} is described`);
  }
});
