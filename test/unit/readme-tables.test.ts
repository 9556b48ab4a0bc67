// The README is the user's manual: its configuration, errors and metrics tables must match the code, and
// its links to its own sections must lead somewhere.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { SETTING_LIST } from '../../src/config/settings.js';
import { SIDECAR_ERRORS } from '../../src/errors.js';
import { METRIC_DEFINITIONS } from '../../src/observability/metrics.js';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** Rows of the Markdown table that follows a heading, as arrays of trimmed cells. */
function tableAfter(heading: string): string[][] {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of readme.slice(start).split('\n').slice(2)) {
    if (line.startsWith('|')) {
      inTable = true;
      rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
    } else if (inTable) break;
  }
  return rows.slice(2);
}

test('the configuration table lists every setting with its default, and nothing else', (t) => {
  const rows = tableAfter('## Configuration');
  t.deepEqual(
    rows.map((r) => r[0]),
    SETTING_LIST.map((s) => `\`${s.env}\``),
  );
  for (const setting of SETTING_LIST) {
    const row = rows.find((r) => r[0] === `\`${setting.env}\``)!;
    t.is(row[1], setting.defaultText === undefined ? '(none)' : `\`${setting.defaultText}\``, setting.env);
  }
});

test('the errors table lists every sidecar error with its status', (t) => {
  const rows = tableAfter('## Errors');
  t.deepEqual(
    rows.map((r) => [r[0], r[1]]),
    Object.values(SIDECAR_ERRORS)
      .sort((a, b) => a.status - b.status)
      .map((e) => [String(e.status), `\`${e.code}\``]),
  );
});

test('the metrics table lists every metric with its type, labels and meaning', (t) => {
  const rows = tableAfter('### Metrics');
  t.deepEqual(
    rows,
    METRIC_DEFINITIONS.map((m) => [`\`${m.name}\``, m.type, m.labels.map((l) => `\`${l}\``).join(', '), m.help]),
  );
});

test('every link to a section of the README names a heading it has', (t) => {
  // GitHub's anchors: the heading in lower case, without punctuation, spaces as hyphens.
  const anchors = new Set([...readme.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replaceAll(' ', '-')));
  const links = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
  t.true(links.length >= 10);
  t.deepEqual(
    links.filter((link) => !anchors.has(link)),
    [],
  );
});
