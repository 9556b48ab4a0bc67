// The manual agrees with the code: the errors and metrics tables list exactly what the code has, the
// README stays a front door, and every relative link of the README and docs/ leads to a file and a
// heading that exist. (docs/configuration.md is generated: generated-files.test.ts checks it.)
import { NAMED_OPERATION_ROUTES } from '../../src/operations/named-operations.js';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { SIDECAR_ERRORS } from '../../src/errors.js';
import { METRIC_DEFINITIONS } from '../../src/observability/metric-definitions.js';
import { anchorsOf } from '../helpers/markdown-anchors.js';
import { REPO_ROOT } from '../helpers/tools.js';

const read = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

/** Rows of the Markdown table that follows a heading, as arrays of trimmed cells. */
function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of markdown.slice(start).split('\n').slice(2)) {
    if (line.startsWith('|')) {
      inTable = true;
      rows.push(
        line
          .split(/(?<!\\)\|/)
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    } else if (inTable) break;
  }
  return rows.slice(2);
}

test('the errors page lists every sidecar error with its status', (t) => {
  const rows = tableAfter(`\n${read('docs/errors.md')}`, '# Errors');
  t.deepEqual(
    rows.map((r) => [r[0], r[1]]),
    Object.values(SIDECAR_ERRORS)
      .sort((a, b) => a.status - b.status)
      .map((e) => [String(e.status), `\`${e.code}\``]),
  );
});

test('the key store page names every named operation and the calls it names', (t) => {
  const rows = tableAfter(read('docs/keystore.md'), '## Operations');
  t.deepEqual(
    rows,
    Object.entries(NAMED_OPERATION_ROUTES).map(([name, calls]) => [`\`${name}\``, calls]),
  );
});

test('the metrics table lists every metric with its type, labels, exemplar and meaning', (t) => {
  const rows = tableAfter(read('docs/operations.md'), '## Metrics');
  t.deepEqual(
    rows,
    METRIC_DEFINITIONS.map((m) => [
      `\`${m.name}\``,
      m.type,
      m.labels.map((l) => `\`${l}\``).join(', '),
      'exemplar' in m ? `\`${m.exemplar}\`` : '',
      m.help,
    ]),
  );
});

test('the README is a front door: short, with the two commands and the three ways into a workload', (t) => {
  const readme = read('README.md');
  t.true(readme.split('\n').length <= 250, `${readme.split('\n').length} lines`);
  for (const fragment of [
    'npm ci && npm start',
    'npm test',
    'sfd-sidecar.io/inject',
    'sfd-sidecar inject',
    'components/sfd-sidecar',
    'docs/keystore.md#rotation-runbook',
    'docs/troubleshooting.md',
  ]) {
    t.true(readme.includes(fragment), fragment);
  }
});

/** The links of a Markdown file that lead nowhere: a missing file or heading. */
function brokenLinks(file: string): string[] {
  const base = join(REPO_ROOT, file);
  const text = readFileSync(base, 'utf8');
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((link) => !/^[a-z]+:/.test(link));
  return links.filter((link) => {
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? base : join(base, '..', path);
    if (!existsSync(target)) return true;
    return anchor !== undefined && !anchorsOf(readFileSync(target, 'utf8')).has(anchor);
  });
}

const markdown = [
  'README.md',
  'helm/sfd-sidecar/README.md',
  ...readdirSync(join(REPO_ROOT, 'docs')).map((f) => `docs/${f}`),
];

for (const file of markdown) {
  test(`every relative link of ${file} leads to a file and heading that exist`, (t) => {
    t.deepEqual(brokenLinks(file), []);
  });
}

test('the link check finds a link that leads nowhere', (t) => {
  t.true(anchorsOf("## On Node 24, the image's runtime").has('on-node-24-the-images-runtime'));
  t.false(anchorsOf('## Soaks').has('soak'));
});

/** Citations a reader of the repository cannot follow: documents outside it, and issue numbers. */
const OUTSIDE_CITATION = new RegExp(
  ['\\.\\./shared', 'field[- ]notes', '(?<![a-z])api-spec', 'issue #\\d', 'bench/README'].join('|'),
  'i',
);

test('no page cites documents outside the repository or issue numbers', (t) => {
  for (const file of markdown) t.notRegex(read(file), OUTSIDE_CITATION, file);
});

/** Hand-written code: sources, the image's build and the chart's templates (generated files are not). */
const CODE = ['*.ts', '*.js', 'Dockerfile', 'helm/*/templates/*'];

test('no line of code passes 120 columns (the formatter leaves long strings and comments alone)', (t) => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...CODE], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '' && existsSync(join(REPO_ROOT, file)));
  const long = files.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, i) => (line.length > 120 ? [`${file}:${i + 1}`] : [])),
  );
  t.deepEqual(long, []);
});

test('no source file, comment or build file cites them either', (t) => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(
      (file) =>
        /^(src|test|bench|tools|helm|deploy|\.ci)\/|^Dockerfile$/.test(file) && existsSync(join(REPO_ROOT, file)),
    );
  t.true(files.length > 100);
  const citing = files.filter((file) => file !== 'test/repository/docs.test.ts' && OUTSIDE_CITATION.test(read(file)));
  t.deepEqual(citing, []);
});
