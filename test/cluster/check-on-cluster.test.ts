// `sfd-sidecar check` and `sfd-sidecar audit` read a real cluster as kubectl prints it, with the chart
// installed as documented (and an entitlement policy, as the docs advise) and one injected pod: check
// exits 0 and fails no line, audit finds nothing to act on, and `check --pod` on the pod kubectl
// fetched explains its decision.
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import { installChart, RELEASE, RELEASE_NAMESPACE, type InstalledChart } from '../helpers/cluster/installed-chart.js';
import { clusterTarget, freshNamespace, kubectlOk, watchUntil } from '../helpers/cluster/kube.js';

/** The kinds check reads (its help and docs/operations.md name them). */
const CHECKED_KINDS =
  'namespaces,pods,deployments,secrets,mutatingwebhookconfigurations,validatingadmissionpolicies,' +
  'validatingadmissionpolicybindings';
const NAMESPACE = 'sfd-checked';
/**
 * The warnings an install may show and docs/operations.md describes: a serving certificate within 14
 * days of its end (the tier's own certificate lives two days).
 */
const DOCUMENTED_WARNINGS = /^warn +CA bundle +the serving certificate in \S+ expires /;

let chart: InstalledChart;
test.before(async () => {
  chart = await installChart([
    `policy.entitlements[0].namespace=${NAMESPACE}`,
    'policy.entitlements[0].profiles={default}',
  ]);
  await freshNamespace(NAMESPACE);
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { 'sfd-sidecar.io/inject': 'true' } },
    spec: { containers: [{ name: 'web', image: 'example/web:1' }] },
  };
  await kubectlOk(['-n', NAMESPACE, 'create', '-f', '-'], JSON.stringify(pod));
  if (clusterTarget().mode === 'envtest') await markInjectorPodsReady();
});
test.after.always(() => chart?.uninstall());

interface Deployment {
  spec: { replicas: number };
  status?: { replicas?: number };
}

/**
 * On a bare API server no kubelet runs the chart's injector pods: the injector answers from this
 * machine instead. Its pods are marked Ready as a kubelet marks them, so that check sees the
 * injector as it is, answering.
 */
async function markInjectorPodsReady(): Promise<void> {
  await watchUntil<Deployment>(
    "the injector Deployment's pods",
    ['-n', RELEASE_NAMESPACE, 'deployment', RELEASE],
    (d) => d.status?.replicas === d.spec.replicas,
  );
  const pods = (
    await kubectlOk(['-n', RELEASE_NAMESPACE, 'get', 'pods', '-l', 'sfd-sidecar.io/injector=true', '-o', 'name'])
  )
    .split('\n')
    .filter(Boolean);
  for (const pod of pods)
    await kubectlOk([
      '-n',
      RELEASE_NAMESPACE,
      'patch',
      pod,
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
    ]);
}

const clusterJson = () => kubectlOk(['get', CHECKED_KINDS, '-A', '-o', 'json']);

test.serial('check exits 0 and fails no line; its only warnings are documented ones', async (t) => {
  const checked = await runCli(['check', '-'], { input: await clusterJson() });
  t.log(checked.stdout);
  t.is(checked.code, 0, checked.stdout + checked.stderr);
  const findings = checked.stdout.split('\n').filter((line) => /^\S/.test(line));
  t.deepEqual(
    findings.filter((line) => !/^ok /.test(line) && !DOCUMENTED_WARNINGS.test(line)),
    [],
  );
  t.regex(checked.stdout, /^ok +injector +2 of 2 pods of sfd-system\/sfd-sidecar ready/m);
  t.regex(checked.stdout, /^ok +pods without the sidecar +every pod that asked for the sidecar runs with it/m);
  t.regex(checked.stdout, /^ok +sidecar image +1 pod runs /m);
  t.regex(checked.stderr, /sfd-sidecar check: \d+ ok, \d+ warn, 0 fail, 0 not checked/);
});

test.serial('audit finds nothing to act on', async (t) => {
  const audited = await runCli(['audit', '-'], { input: await clusterJson() });
  t.is(audited.code, 0, audited.stdout + audited.stderr);
  t.is(audited.stdout, '');
  t.regex(audited.stderr, /sfd-sidecar audit: \d+ objects read \(\d+ pods\), 0 to act on/);
});

test.serial('check --pod explains the decision on the pod kubectl fetched', async (t) => {
  const pod = await kubectlOk(['-n', NAMESPACE, 'get', 'pod', 'web', '-o', 'json']);
  const explained = await runCli(['check', '--pod', 'web', '-n', NAMESPACE, '--keystore-secret', 'sfd-keys', '-'], {
    input: pod,
  });
  t.log(explained.stdout);
  t.is(explained.code, 0, explained.stderr);
  t.regex(explained.stdout, new RegExp(`^Pod web in ${NAMESPACE}: the injector would leave it as it is$`, 'm'));
  t.regex(explained.stdout, /^ {2}reason: already-injected: the pod carries a sidecar that passes every rule/m);
  t.regex(explained.stdout, /^ {2}recorded on the pod: injected$/m);

  const alone = await runCli(['check', '--pod', 'web', '-n', NAMESPACE, '-'], { input: pod });
  t.is(alone.code, 2, 'without the injector in the input, the key store Secret must be given');
  t.regex(alone.stderr, /--keystore-secret is missing/);

  const withCluster = await runCli(['check', '--pod', 'web', '-n', NAMESPACE, '-'], { input: await clusterJson() });
  t.is(withCluster.code, 0, withCluster.stderr);
  t.regex(withCluster.stdout, /^ {2}recorded on the pod: injected$/m);
});
