// `sfd-sidecar audit` over what `kubectl get namespaces,deployments,pods -A -o json` prints: the pods that
// asked and run without the sidecar, the workloads and pods that ask by annotation only (with what to
// label), the pods on another sidecar version; exit 1 while there is something to do.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import { REPO_ROOT } from '../helpers/tools.js';

const CLUSTER = join(REPO_ROOT, 'test/fixtures/audit/cluster.json');

test('audit lists what to act on, and names the workload to label', async (t) => {
  const run = await runCli(['audit', '--version', '0.1.0', CLUSTER]);
  t.is(run.code, 1);
  const lines = run.stdout.trim().split('\n');
  t.deepEqual(lines, [
    'annotation-only: Deployment/legacy in namespace batch: asks by the annotation sfd-sidecar.io/inject only, ' +
      'which the injector\'s selectors cannot see: add the label sfd-sidecar.io/inject: "true" to the Deployment ' +
      'itself',
    'annotation-only: Pod/legacy-7d9f8b6c5d-x2x9k in namespace batch: asks by the annotation sfd-sidecar.io/inject ' +
      'only, which the injector\'s selectors cannot see: add the label sfd-sidecar.io/inject: "true" to the pod ' +
      'template of Deployment legacy',
    'runs-without-sidecar: Pod/legacy-7d9f8b6c5d-x2x9k in namespace batch: asked for the sidecar and runs without ' +
      'it: restart it once the injector answers (the pod template of Deployment legacy)',
    'runs-without-sidecar: Pod/web-5c6b7d8f9-abcde in namespace shop: asked for the sidecar and runs without it: ' +
      'restart it once the injector answers (the pod template of Deployment web)',
    'other-version: Pod/api-0 in namespace shop: runs sidecar image tag 0.0.9, not 0.1.0: restart the pod ' +
      'template of StatefulSet api',
  ]);
  t.regex(run.stderr, /8 objects read \(5 pods\), 5 to act on/);
});

test('audit reads standard input and JSON output; nothing to do is exit 0; bad input is exit 2', async (t) => {
  const json = await runCli(['audit', '--json', '-'], { input: readFileSync(CLUSTER, 'utf8') });
  t.is(json.code, 1);
  const kinds = (JSON.parse(json.stdout) as { findings: { kind: string }[] }).findings.map((f) => f.kind);
  t.deepEqual(kinds, ['annotation-only', 'annotation-only', 'runs-without-sidecar', 'runs-without-sidecar']);
  const namespaces = {
    apiVersion: 'v1',
    kind: 'List',
    items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }],
  };
  const clean = await runCli(['audit', '-'], { input: JSON.stringify(namespaces) });
  t.is(clean.code, 0);
  t.is(clean.stdout, '');
  const bad = await runCli(['audit', '-'], { input: 'apiVersion: v1' });
  t.is(bad.code, 2);
  t.regex(bad.stderr, /not the JSON kubectl prints with -o json/);
});

test("upgrades are judged by the sidecar's image: its tag for --version, its running digest for --image", async (t) => {
  const older = await runCli(['audit', '--version', '0.0.9', CLUSTER]);
  t.regex(older.stdout, /other-version: Pod\/current in namespace batch: runs sidecar image tag 0\.1\.0, not 0\.0\.9/);
  t.notRegex(older.stdout, /api-0/);
  const digest = `sha256:${'a'.repeat(64)}`;
  const byDigest = await runCli(['audit', '--image', `ghcr.io/sfd-sidecar/sfd-sidecar@${digest}`, CLUSTER]);
  t.notRegex(byDigest.stdout, /Pod\/current/, 'runs that digest');
  t.regex(byDigest.stdout, /Pod\/api-0 in namespace shop: runs a sidecar whose digest its status does not show yet/);
  const byTag = await runCli(['audit', '--image', 'ghcr.io/sfd-sidecar/sfd-sidecar:0.1.0', CLUSTER]);
  t.regex(
    byTag.stdout,
    /Pod\/api-0 in namespace shop: runs sidecar image ghcr\.io\/sfd-sidecar\/sfd-sidecar:0\.0\.9, not/,
  );
});

// A pipe whose kubectl failed (no `set -o pipefail`) gives audit nothing: that must fail the gate, and say
// what input was expected and how to make it.
for (const [title, input] of [
  ['empty input', ''],
  ['whitespace only', ' \n\t\n'],
  ['an empty List', '{"apiVersion":"v1","kind":"List","items":[]}'],
  ['items of no kind it reads', '{"items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}]}'],
  ['an object without items', '{"items":[]}'],
] as const) {
  test(`audit of ${title} is exit 2, naming the input expected and pipefail`, async (t) => {
    for (const args of [
      ['audit', '-'],
      ['audit', '--json', '-'],
    ]) {
      const run = await runCli(args, { input });
      t.is(run.code, 2, run.stderr);
      t.is(run.stdout, '');
      t.regex(run.stderr, /^sfd-sidecar audit: nothing to audit: standard input holds no Namespace, Pod or workload/);
      t.regex(run.stderr, /kubectl get namespaces,pods -A -o json/);
      t.regex(run.stderr, /set -o pipefail/);
    }
  });
}
