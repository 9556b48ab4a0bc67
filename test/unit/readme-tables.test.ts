// The README is the user's manual: its configuration, errors and metrics tables must match the code, and
// its links, to its own sections and to the performance record (bench/README.md), must lead somewhere.
import { existsSync, readFileSync } from 'node:fs';
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

/** GitHub's anchors of a Markdown text's headings: lower case, without punctuation, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,4} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replaceAll(' ', '-')));
}

/** The links of a Markdown file, read from the repository's root, that lead nowhere: a missing file or heading. */
function brokenLinks(file: string): string[] {
  const root = new URL('../../../', import.meta.url);
  const base = new URL(file, root);
  const text = readFileSync(base, 'utf8');
  const anchorsByFile = new Map<string, Set<string>>();
  const anchorsIn = (target: URL): Set<string> => {
    let anchors = anchorsByFile.get(target.href);
    if (!anchors) anchorsByFile.set(target.href, (anchors = anchorsOf(readFileSync(target, 'utf8'))));
    return anchors;
  };
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((link) => !/^[a-z]+:/.test(link));
  return links.filter((link) => {
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? base : new URL(path, base);
    if (!existsSync(target)) return true;
    return anchor !== undefined && !anchorsIn(target).has(anchor);
  });
}

test('every link to a section of the README names a heading it has', (t) => {
  const anchors = anchorsOf(readme);
  const links = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
  t.true(links.length >= 10);
  t.deepEqual(
    links.filter((link) => !anchors.has(link)),
    [],
  );
});

test('every relative link of the README and the performance record leads to a file and heading that exist', (t) => {
  t.deepEqual(brokenLinks('README.md'), []);
  t.deepEqual(brokenLinks('bench/README.md'), []);
  // The check itself finds a link that leads nowhere.
  t.true(anchorsOf('## On Node 24, the image\'s runtime').has('on-node-24-the-images-runtime'));
  t.false(anchorsOf('## Soaks').has('soak'));
});
