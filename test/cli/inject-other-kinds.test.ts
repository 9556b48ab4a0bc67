// `inject` over objects of kinds it does not add the sidecar to (test/fixtures/other-kinds, whose README
// names the public manifests each follows): a KEDA ScaledJob, an Argo Workflow, a Knative Service and a
// core PodTemplate whose application reads the key store fail the gate, the document and the rule named,
// with or without an entitlement policy; the same objects reading another Secret come out byte for byte,
// each named on stderr with where it holds containers.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import { REPO_ROOT } from '../helpers/tools.js';

const dir = mkdtempSync(join(tmpdir(), 'sfd-other-kinds-'));
const POLICY = join(dir, 'policy.yaml');
writeFileSync(POLICY, 'entitlements:\n  - namespace: shop\n    profiles: [default]\n');
const fixture = (name: string): string => join(REPO_ROOT, 'test/fixtures/other-kinds', name);

/** Each fixture, the object it names, and what its application does with the key store. */
const READERS: readonly [file: string, object: string, problems: readonly RegExp[], holds: string][] = [
  [
    'keda-scaledjob.yaml',
    'ScaledJob/invoice-worker',
    [/key-access at spec\.jobTargetRef\.template\.spec\.containers\[0\]: container worker mounts volume keys/],
    'spec.jobTargetRef.template.spec.containers',
  ],
  [
    'argo-workflow.yaml',
    'Workflow/export-\\*',
    [
      /key-access at spec\.templates\[0\]\.container: the container mounts volume keys, which holds the key store/,
      /key-access at spec\.templates\[0\]\.container: the container reads the key store Secret sfd-keys into/,
    ],
    'spec.templates[0].container',
  ],
  [
    'knative-service.yaml',
    'Service/quotes',
    [/key-access at spec\.template\.spec\.containers\[0\]: the container mounts volume keys/],
    'spec.template.spec.containers',
  ],
  [
    'pod-template.yaml',
    'PodTemplate/report-runner',
    [/key-access at template\.spec\.containers\[0\]: container runner reads the key store Secret sfd-keys into/],
    'template.spec.containers',
  ],
];

for (const [file, object, problems, holds] of READERS) {
  test(`a ${object.split('/')[0]} whose application reads the key store fails the gate, named`, async (t) => {
    for (const policy of [['--policy-file', POLICY], []]) {
      const run = await runCli(['inject', '--keystore-secret', 'sfd-keys', ...policy, fixture(file)]);
      t.is(run.code, 1, run.stderr);
      t.is(run.stdout, '');
      for (const problem of problems)
        t.regex(
          run.stderr,
          new RegExp(`^error: ${object} in namespace shop \\(.*${file}, document 1\\): ${problem.source}`, 'm'),
        );
    }
    const other = readFileSync(fixture(file), 'utf8').replaceAll('sfd-keys', 'reports-db');
    const control = await runCli(['inject', '--keystore-secret', 'sfd-keys', '--policy-file', POLICY, '-'], {
      input: other,
    });
    t.is(control.code, 0, control.stderr);
    t.is(control.stdout, other, 'left byte for byte');
    t.true(control.stderr.includes(`it holds containers at ${holds}, but`), control.stderr);
    t.regex(control.stderr, new RegExp(`^left alone ${object} in namespace shop \\(stdin, document 1\\)`, 'm'));
  });
}

test('a workload labelled out of injection is still judged: its application may not read the key store', async (t) => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'legacy', namespace: 'shop' },
    spec: {
      selector: { matchLabels: { app: 'legacy' } },
      template: {
        metadata: { labels: { app: 'legacy', 'sfd-sidecar.io/inject': 'false' } },
        spec: {
          containers: [{ name: 'app', image: 'example/legacy:1', envFrom: [{ secretRef: { name: 'sfd-keys' } }] }],
        },
      },
    },
  };
  const run = await runCli(['inject', '--keystore-secret', 'sfd-keys', '--policy-file', POLICY, '-'], {
    input: JSON.stringify(deployment),
  });
  t.is(run.code, 1);
  t.regex(
    run.stderr,
    /error: Deployment\/legacy .*key-access at spec\.template\.spec\.containers\[0\]: container app reads/,
  );
  const spec = deployment.spec.template.spec;
  spec.containers[0]!.envFrom = [{ secretRef: { name: 'legacy-db' } }];
  const alone = await runCli(['inject', '--keystore-secret', 'sfd-keys', '-'], { input: JSON.stringify(deployment) });
  t.is(alone.code, 0, alone.stderr);
  t.regex(alone.stderr, /left alone Deployment\/legacy .*sfd-sidecar\.io\/inject: "false"/);
});

test('uninject leaves objects of other kinds as they are, whatever they read', async (t) => {
  const run = await runCli(['uninject', fixture('keda-scaledjob.yaml')]);
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, readFileSync(fixture('keda-scaledjob.yaml'), 'utf8'));
});
