// The chart's Artifact Hub annotations that its release depends on: signKey leads to how the keyless cosign
// signature is verified (Artifact Hub requires its url), and changes lists CHANGELOG.md's entries as the
// structured list Artifact Hub reads, with the kinds it knows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { chartChanges, CHART_YAML } from '../../tools/chart-changes.js';
import { anchorsOf } from '../helpers/markdown-anchors.js';
import { REPO_ROOT } from '../helpers/tools.js';

const HOME = 'https://github.com/sfd-sidecar/sfd-sidecar/blob/main/';
const annotations = (): Record<string, string> =>
  (parse(readFileSync(join(REPO_ROOT, CHART_YAML), 'utf8')) as { annotations: Record<string, string> }).annotations;

test('signKey names the page that says how to verify the keyless signature, at a heading that exists', (t) => {
  const signKey = parse(annotations()['artifacthub.io/signKey']!) as { url?: string; fingerprint?: string };
  t.truthy(signKey.url, 'Artifact Hub refuses a signKey without url');
  t.true(signKey.url!.startsWith(HOME), signKey.url);
  const [path, anchor] = signKey.url!.slice(HOME.length).split('#');
  const page = readFileSync(join(REPO_ROOT, path!), 'utf8');
  t.true(anchorsOf(page).has(anchor!), `${path} has a heading #${anchor}`);
  t.regex(page, /cosign verify-blob/);
  t.regex(page, /--certificate-oidc-issuer https:\/\/token\.actions\.githubusercontent\.com/);
});

test("changes is the Unreleased section's entries, each of a kind Artifact Hub knows", (t) => {
  const changes = parse(annotations()['artifacthub.io/changes']!) as { kind: string; description: string }[];
  const changelog = readFileSync(join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
  t.deepEqual(changes, chartChanges(changelog));
  t.true(changes.length > 0);
  for (const change of changes) {
    t.true(['added', 'changed', 'deprecated', 'removed', 'fixed', 'security'].includes(change.kind), change.kind);
    t.false(/\n/.test(change.description));
    t.true(changelog.replace(/\s+/g, ' ').includes(change.description.replace(/\s+/g, ' ')), change.description);
  }
  t.true(changes.some((c) => c.kind === 'added'));
  t.true(changes.some((c) => c.kind === 'fixed'));
});

test('once a release moves Unreleased under its version, changes lists that version', (t) => {
  const released = [
    '# Changelog',
    '',
    '## Unreleased',
    '',
    '## 0.3.0',
    '',
    '### Changes to contracts',
    '',
    '- `port` is a node port',
    '  with hostNetwork.',
    '',
    '### Added',
    '',
    '- `extraObjects`.',
    '- `hostNetwork`.',
    '',
    '## 0.2.0',
    '',
    '### Fixed',
    '',
    '- An older fix.',
  ].join('\n');
  t.deepEqual(chartChanges(released), [
    { kind: 'changed', description: '`port` is a node port with hostNetwork.' },
    { kind: 'added', description: '`extraObjects`.' },
    { kind: 'added', description: '`hostNetwork`.' },
  ]);
  t.throws(() => chartChanges('## Unreleased\n\n### Improvements\n\n- x\n'), { message: /Improvements/ });
});
