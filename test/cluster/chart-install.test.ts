// The chart installs as docs/deploying.md says, on a real API server: helm succeeds, the API server
// accepts the admission policy and reports no type-check warning for it, in every rendering the tests
// use; the model of the API server the other tests rely on says the same of each, and refuses what
// the real one refuses. An upgrade from the previous release succeeds, and an uninstall leaves
// nothing that stops a pod from being created.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import type { PolicySpec } from '../helpers/admission-policy.js';
import { compilePolicy, describeCompileError, typeCheckPolicy } from '../helpers/kube-cel/admission-cel.js';
import { installChart, RELEASE, RELEASE_NAMESPACE } from '../helpers/cluster/installed-chart.js';
import {
  clusterTarget,
  freshNamespace,
  getJson,
  helm,
  kubectl,
  kubectlOk,
  watchUntil,
} from '../helpers/cluster/kube.js';
import { selfSignedCertificate } from '../helpers/tls-server.js';
import { REPO_ROOT } from '../helpers/tools.js';

const POLICY = `${RELEASE}-keystore-mounts`;
/** The renderings the model tests judge, each installed here. */
const RENDERINGS: Record<string, string[]> = {
  'as documented': [],
  'an entitlement policy and the per-profile layout': [
    'keystore.layout=per-profile',
    'policy.entitlements[0].namespace=shop',
    'policy.entitlements[0].profiles={billing}',
    'policy.entitlements[1].namespace=shop',
    'policy.entitlements[1].serviceAccounts={checkout}',
    'policy.entitlements[1].profiles={orders}',
  ],
  'extra selector terms and excluded namespaces': [
    'webhook.excludeNamespaces={legacy}',
    'webhook.namespaceSelectorExtra[0].key=env',
    'webhook.namespaceSelectorExtra[0].operator=NotIn',
    'webhook.namespaceSelectorExtra[0].values[0]=prod',
    'webhook.objectSelectorExtra[0].key=legacy',
    'webhook.objectSelectorExtra[0].operator=DoesNotExist',
  ],
  'a mirror registry and a digest': [
    'global.imageRegistry=mirror.example.internal',
    `sidecar.image.digest=sha256:${'c'.repeat(64)}`,
  ],
};

interface Policy {
  metadata: { generation: number };
  spec: PolicySpec;
  status?: {
    observedGeneration?: number;
    typeChecking?: { expressionWarnings?: { fieldRef: string; warning: string }[] };
  };
}

for (const [name, values] of Object.entries(RENDERINGS)) {
  test.serial(`the chart installs and its policy is accepted without a warning (${name})`, async (t) => {
    const chart = await installChart(values);
    t.teardown(() => chart.uninstall());
    const policy = await getJson<Policy>(['get', 'validatingadmissionpolicy', POLICY]);
    t.deepEqual(compilePolicy(policy.spec).map(describeCompileError), [], 'the model accepts what the server did');
    t.deepEqual(typeCheckPolicy(policy.spec), [], 'the model finds no warning');
    if (!clusterTarget().controllers) return void t.log('no controllers: the type check is not reported here');
    const checked = await watchUntil<Policy>(
      'the type check of the policy',
      ['validatingadmissionpolicy', POLICY],
      (p) => p.status?.observedGeneration === p.metadata.generation,
    );
    t.deepEqual(checked.status?.typeChecking?.expressionWarnings ?? [], []);
  });
}

test.serial("the API server refuses the previous release's policy, and the model says why as it does", async (t) => {
  const file = join(REPO_ROOT, 'test/fixtures/cluster/previous-release-policy.yaml');
  const refused = await kubectl(['create', '--dry-run=server', '-f', file]);
  t.not(refused.code, 0);
  const spec = parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as { kind: string; spec: PolicySpec })
    .find((o) => o.kind === 'ValidatingAdmissionPolicy')!.spec;
  const model = compilePolicy(spec);
  t.is(model.length, 1, model.map(describeCompileError).join('\n'));
  const [error] = model;
  t.true(refused.stderr.includes(`${error!.field}: Invalid value:`), refused.stderr);
  t.true(refused.stderr.includes(error!.detail.split('\n')[0]!), `the model: ${error!.detail}`);
});

/** The last release's chart, from this repository's history. */
const PREVIOUS_RELEASE_COMMIT = 'cebc0e0';

test.serial('an upgrade from the previous release succeeds and leaves the policy accepted', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-previous-chart-'));
  try {
    execFileSync('sh', ['-c', `git archive ${PREVIOUS_RELEASE_COMMIT} helm | tar -x -C ${dir}`], { cwd: REPO_ROOT });
  } catch {
    return void t.fail(
      `commit ${PREVIOUS_RELEASE_COMMIT} is not in this clone: fetch the history (git fetch --unshallow)`,
    );
  }
  await helm(['uninstall', RELEASE, '-n', RELEASE_NAMESPACE, '--wait']);
  // The previous release's policy is one the API server refuses; it installs only without it.
  const previous = await helm([
    'install',
    RELEASE,
    join(dir, 'helm/sfd-sidecar'),
    '-n',
    RELEASE_NAMESPACE,
    '--create-namespace',
    '--set',
    'keystore.existingSecret=sfd-keys',
    '--set',
    'admissionPolicy.enabled=false',
  ]);
  t.is(previous.code, 0, previous.stderr);
  const upgraded = await helm([
    'upgrade',
    RELEASE,
    'helm/sfd-sidecar',
    '-n',
    RELEASE_NAMESPACE,
    '--reuse-values',
    '--set',
    'admissionPolicy.enabled=true',
  ]);
  t.teardown(() => helm(['uninstall', RELEASE, '-n', RELEASE_NAMESPACE, '--wait']));
  t.is(upgraded.code, 0, upgraded.stderr);
  t.is((await kubectl(['get', 'validatingadmissionpolicy', POLICY])).code, 0);
});

test.serial('an uninstall leaves nothing that stops a pod from being created', async (t) => {
  const chart = await installChart();
  await chart.uninstall();
  const namespace = await freshNamespace('sfd-after-uninstall', { 'sfd-sidecar.io/inject': 'enabled' });
  const left = await kubectlOk([
    'get',
    'mutatingwebhookconfigurations,validatingadmissionpolicies,validatingadmissionpolicybindings',
    '-o',
    'name',
  ]);
  t.false(left.includes(RELEASE), left);
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'reader', namespace, labels: { 'sfd-sidecar.io/inject': 'true' } },
    spec: {
      containers: [{ name: 'web', image: 'example/web:1', volumeMounts: [{ name: 'keys', mountPath: '/k' }] }],
      volumes: [{ name: 'keys', secret: { secretName: 'sfd-keys' } }],
    },
  };
  const created = await kubectl(['create', '-f', '-'], JSON.stringify(pod));
  t.is(created.code, 0, created.stderr);
  await kubectl(['delete', 'namespace', namespace, '--wait=false']);
});

test.serial('an upgrade keeps the certificate the injector wrote into its Secret, and warns of nothing', async (t) => {
  await helm(['uninstall', RELEASE, '-n', RELEASE_NAMESPACE, '--wait']);
  const chart = ['helm/sfd-sidecar', '-n', RELEASE_NAMESPACE, '--set', 'keystore.existingSecret=sfd-keys'];
  const installed = await helm([
    'install',
    RELEASE,
    ...chart,
    '--create-namespace',
    '--set',
    'certificates.issuer=injector',
  ]);
  t.teardown(() => helm(['uninstall', RELEASE, '-n', RELEASE_NAMESPACE, '--wait']));
  t.is(installed.code, 0, installed.stderr);
  const secret = ['-n', RELEASE_NAMESPACE, 'get', 'secret', `${RELEASE}-tls`];
  const written = async () => (await getJson<{ data?: Record<string, string> }>(secret)).data?.['tls.crt'] ?? '';
  if (clusterTarget().mode === 'envtest') {
    // No injector runs here: write what it would, a serving certificate and its key.
    const pair = await selfSignedCertificate('sfd-sidecar.sfd-system.svc');
    const data = {
      'tls.crt': readFileSync(pair.certFile).toString('base64'),
      'tls.key': readFileSync(pair.keyFile).toString('base64'),
    };
    await kubectlOk(['-n', RELEASE_NAMESPACE, 'patch', 'secret', `${RELEASE}-tls`, '-p', JSON.stringify({ data })]);
  }
  const filled = await watchUntil<{ data?: Record<string, string> }>(
    'the Secret holds a certificate',
    ['secret', `${RELEASE}-tls`, '-n', RELEASE_NAMESPACE],
    (s) => (s.data?.['tls.crt'] ?? '') !== '',
  );
  const before = filled.data?.['tls.crt'] ?? '';
  const upgraded = await helm(['upgrade', RELEASE, ...chart, '--reuse-values', '--set', 'webhook.timeoutSeconds=7']);
  t.is(upgraded.code, 0, upgraded.stderr);
  t.notRegex(upgraded.stderr, /PEM|[Ww]arning/);
  t.is(await written(), before, 'the upgrade left the serving certificate as the injector wrote it');
});
