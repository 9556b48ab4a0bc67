// `sfd-sidecar uninject` over the output of `sfd-sidecar inject` prints the file inject was given, byte
// for byte, for every manifest of three folders, run as a user runs them (two processes, a pipe):
// - test/fixtures/world-real: manifests copied unchanged from other projects (kube-prometheus' grafana
//   Deployment, and the OpenTelemetry collector chart's rendered Deployment); the README of that folder
//   names the repository, path, commit and license of each;
// - test/fixtures/world: manifests written for this project in the shapes other projects write (its
//   README names the public examples each follows);
// - test/fixtures/manifests: the project's own example manifests.
// A manifest inject refuses has no output to take back and is left out. The documents inject writes
// whole when it changes them are named below with why; for them the round trip keeps the value.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import { REPO_ROOT } from '../helpers/tools.js';

const FOLDERS = ['test/fixtures/world-real', 'test/fixtures/world', 'test/fixtures/manifests'];

/** Documents written whole when changed (docs/injection.md says so): their layout does not come back. */
const WRITTEN_WHOLE: Readonly<Record<string, string>> = {
  'test/fixtures/world/anchors.yaml': 'anchors: an edit through an anchor would reach every alias of it',
  'test/fixtures/world/duplicate-keys.yaml': 'a repeated key: an edit could land on the key kubectl ignores',
};

const files = FOLDERS.flatMap((folder) =>
  readdirSync(join(REPO_ROOT, folder))
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .map((name) => `${folder}/${name}`),
);

const valuesOf = (text: string): unknown[] => parseAllDocuments(text).map((document) => document.toJS() as unknown);

test('the folders hold the manifests their READMEs name', (t) => {
  t.true(files.includes('test/fixtures/world-real/kube-prometheus-grafana-deployment.yaml'));
  t.true(files.includes('test/fixtures/world-real/opentelemetry-collector-deployment-only.yaml'));
  for (const file of Object.keys(WRITTEN_WHOLE)) t.true(files.includes(file), file);
});

for (const file of files) {
  test.serial(`uninject gives back what inject was given: ${file}`, async (t) => {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    const injected = await runCli(['inject', '--keystore-secret', 'sfd-keys', join(REPO_ROOT, file)]);
    if (injected.code !== 0) {
      t.is(injected.stdout, '', 'a refused manifest prints nothing');
      return;
    }
    const back = await runCli(['uninject', '-'], { input: injected.stdout });
    t.is(back.code, 0, back.stderr);
    const why = WRITTEN_WHOLE[file];
    if (why === undefined) t.is(back.stdout, text);
    else t.deepEqual(valuesOf(back.stdout), valuesOf(text), why);
  });
}
