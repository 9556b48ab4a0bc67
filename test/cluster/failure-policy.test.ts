// What a user sees while no injector answers, on a real API server. Under `webhook.failurePolicy: Fail`
// a pod that asks for the sidecar is refused and the creator's error names the webhook, while a pod that
// did not ask is created. Under the chart's default `Ignore` the pod that asks is created as it came,
// without the sidecar, kubectl prints nothing about it, and `sfd-sidecar check` on the cluster finds it.
// The admission policy still refuses a pod that carries a copied sidecar signing with a profile the
// entitlement policy does not grant: the API server is the backstop while the injector is down.
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import { policyDenial, webhookCallFailed } from '../helpers/cluster/denials.js';
import { carrying } from '../helpers/cluster/carrying-pod.js';
import { installChart, type InstalledChart } from '../helpers/cluster/installed-chart.js';
import { freshNamespace, getJson, kubectl, kubectlOk, type Ran } from '../helpers/cluster/kube.js';

const CHECKED_KINDS =
  'namespaces,pods,deployments,secrets,mutatingwebhookconfigurations,validatingadmissionpolicies,' +
  'validatingadmissionpolicybindings';

interface Pod {
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec: { containers: { name: string }[]; initContainers?: { name: string }[]; serviceAccountName?: string };
}

const pod = (name: string, labels: Record<string, string> = { 'sfd-sidecar.io/inject': 'true' }) => ({
  metadata: { name, labels },
  spec: { containers: [{ name: 'web', image: 'example/web:1' }] },
});

const create = (namespace: string, object: object): Promise<Ran> =>
  kubectl(['-n', namespace, 'create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', ...object }));

const names = (p: Pod): string[] => [...(p.spec.initContainers ?? []), ...p.spec.containers].map((c) => c.name);

test.serial('with failurePolicy Fail, a pod that asks is refused naming the webhook; others are created', async (t) => {
  const chart = await installChart(['webhook.failurePolicy=Fail']);
  t.teardown(() => chart.uninstall());
  const namespace = await freshNamespace('sfd-fail');
  await chart.stopInjector();
  const refused = await create(namespace, pod('web'));
  t.not(refused.code, 0);
  t.regex(refused.stderr, webhookCallFailed());
  t.log(`kubectl create: ${refused.stderr.trim()}`);
  t.regex((await kubectl(['-n', namespace, 'get', 'pod', 'web'])).stderr, /NotFound/, 'no pod was created');
  const other = await create(namespace, pod('other', { app: 'other' }));
  t.is(other.code, 0, `a pod that did not ask never reaches the webhook: ${other.stderr}`);
});

const ENTITLED = [
  'policy.entitlements[0].namespace=sfd-ignore',
  'policy.entitlements[0].serviceAccounts={checkout}',
  'policy.entitlements[0].profiles={billing}',
];

/** The chart with the entitlement policy, installed once for the tests that need it. */
let entitled: Promise<InstalledChart> | undefined;
const entitledChart = (): Promise<InstalledChart> => (entitled ??= installChart(ENTITLED));
test.after.always(async () => (await entitled)?.uninstall());

test.serial('with failurePolicy Ignore, a pod that asks starts without the sidecar and check finds it', async (t) => {
  const chart = await entitledChart();
  const namespace = await freshNamespace('sfd-ignore');
  await chart.stopInjector();
  t.teardown(() => chart.startInjector());
  const created = await create(namespace, { apiVersion: 'v1', kind: 'Pod', ...pod('web') });
  t.is(created.code, 0, created.stderr);
  t.notRegex(created.stderr, /Warning/, 'kubectl prints no warning: the API server admits it silently');
  const admitted = await getJson<Pod>(['-n', namespace, 'get', 'pod', 'web']);
  t.deepEqual(names(admitted), ['web'], 'no sidecar');
  t.is(admitted.metadata.annotations?.['sfd-sidecar.io/decision'], undefined, 'no decision recorded');

  const cluster = await kubectlOk(['get', CHECKED_KINDS, '-A', '-o', 'json']);
  const checked = await runCli(['check', '-'], { input: cluster });
  t.is(checked.code, 1, checked.stdout + checked.stderr);
  t.regex(
    checked.stdout,
    new RegExp(
      `fail +pods without the sidecar +Pod/web in namespace ${namespace} asked for the sidecar and runs without it\\n` +
        ` +fix: kubectl -n ${namespace} delete pod web \\(once the injector answers\\)`,
    ),
  );
  const audited = await runCli(['audit', '-'], { input: cluster });
  t.is(audited.code, 1, audited.stderr);
  t.regex(audited.stdout, new RegExp(`runs-without-sidecar: Pod/web in namespace ${namespace}: asked for the sidecar`));
});

test.serial(
  'while no injector answers, the admission policy refuses a copied sidecar with an ungranted profile',
  async (t) => {
    const chart = await entitledChart();
    const namespace = await freshNamespace('sfd-ignore');
    await kubectlOk(['-n', namespace, 'create', 'serviceaccount', 'checkout']);
    await chart.stopInjector();
    t.teardown(() => chart.startInjector());
    const ungranted = await create(namespace, await carrying('orders', 'orders'));
    t.not(ungranted.code, 0);
    t.regex(
      ungranted.stderr,
      policyDenial('the sfd-sidecar container may sign only with profiles the entitlement policy grants'),
    );
    t.log(`kubectl create: ${ungranted.stderr.trim()}`);
    const granted = await create(namespace, await carrying('billing', 'billing'));
    t.is(granted.code, 0, `the same pod signing as the granted profile is admitted: ${granted.stderr}`);
  },
);
