// Each fact in the manual has one home: measurements live on the performance page, no page says the
// same sentence twice, and troubleshooting starts where an operator is (inside the pod).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from '../helpers/repo-root.js';

const PAGES = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (page: string): string => readFileSync(join(REPO_ROOT, page), 'utf8');

/** Sentences of prose (code blocks and tables left out), whitespace joined. */
function sentences(markdown: string): string[] {
  const prose = markdown
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((line) => !line.startsWith('|'))
    .join(' ')
    .replace(/\s+/g, ' ');
  return prose.split(/(?<=[.!?])\s+(?=[A-Z`])/).filter((sentence) => sentence.length >= 60);
}

test('no page says the same sentence twice', (t) => {
  for (const page of PAGES) {
    const seen = new Set<string>();
    const repeated = sentences(read(page)).filter((sentence) => seen.has(sentence) || !seen.add(sentence));
    t.deepEqual(repeated, [], page);
  }
});

test('measured memory and per-request times appear on the performance page only', (t) => {
  // Resident memory is measured in MB and request costs in µs; settings use MiB, ms and s.
  const measurement = /\b\d+(\.\d+)? ?(MB|µs)\b/;
  const pages = PAGES.filter((page) => page !== 'docs/performance.md' && page !== 'docs/configuration.md');
  t.deepEqual(
    pages.filter((page) => measurement.test(read(page))),
    [],
  );
});

test('troubleshooting gives the in-pod doctor command first, then the one for a workstation', (t) => {
  const page = read('docs/troubleshooting.md');
  const inPod = page.indexOf('kubectl exec POD -c sfd-sidecar -- /nodejs/bin/node /app/dist/src/main.js doctor');
  const workstation = page.indexOf('`sfd-sidecar doctor`');
  t.true(inPod >= 0 && workstation > inPod);
});
