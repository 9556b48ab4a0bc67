// The entitlement policy's parameters missing on a real API server. The chart binds its key store
// admission policy once for every pod without parameters, and again with the grants' ConfigMap for the
// pods that ask for the sidecar only. Once someone deletes that ConfigMap, a pod that asks is refused
// for want of it, while a pod that does not ask is created as usual and a copied sidecar in a pod that
// does not ask is still refused; once helm upgrade restores it, a granted reader is admitted and an
// ungranted one refused by the API server alone.
import test from 'ava';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import { noParamsDenial, policyDenial } from '../helpers/cluster/denials.js';
import { installChart, RELEASE, RELEASE_NAMESPACE, type InstalledChart } from '../helpers/cluster/installed-chart.js';
import { freshNamespace, kubectl, kubectlOk, type Ran } from '../helpers/cluster/kube.js';
import { DEFAULTS } from '../helpers/injection.js';

const NAMESPACE = 'sfd-grants';
const VALUES = [
  `policy.entitlements[0].namespace=${NAMESPACE}`,
  'policy.entitlements[0].serviceAccounts={checkout}',
  'policy.entitlements[0].profiles={billing}',
];
const GRANTS = `${RELEASE}-entitlements`;

let chart: InstalledChart;
test.before(async () => {
  chart = await installChart(VALUES);
  await freshNamespace(NAMESPACE);
  await kubectlOk(['-n', NAMESPACE, 'create', 'serviceaccount', 'checkout']);
});
test.after.always(() => chart?.uninstall());

const plain = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'web', image: 'example/web:1' }] },
});

/** The pod `inject` prints for the checkout account, signing as `profile` (it labels the pod as asking). */
async function carrying(name: string, profile: string): Promise<{ metadata: { labels: Record<string, string> } }> {
  const pod = { ...plain(name, { app: name }), spec: { ...plain(name, {}).spec, serviceAccountName: 'checkout' } };
  const printed = await runCli(
    ['inject', '--keystore-secret', 'sfd-keys', '--profile', profile, '--image', DEFAULTS.image, '-'],
    { input: JSON.stringify(pod) },
  );
  if (printed.code !== 0) throw new Error(printed.stderr);
  return parse(printed.stdout) as never;
}

const create = (object: object, ...flags: string[]): Promise<Ran> =>
  kubectl(['-n', NAMESPACE, 'create', ...flags, '-f', '-'], JSON.stringify(object));

/**
 * The answer to creating the pod once the API server's view of the grants' ConfigMap is `present`:
 * the server learns of a deletion or a creation through its watch, so an answer of the other state is
 * asked again (a dry run) until the server has caught up, within a minute.
 */
async function once(present: boolean, object: object): Promise<Ran> {
  const deadline = Date.now() + 60_000;
  const stale = (ran: Ran) => noParamsDenial().test(ran.stderr) === present;
  let tried = await create(object, '--dry-run=server');
  while (stale(tried) && Date.now() < deadline) tried = await create(object, '--dry-run=server');
  return tried;
}

test.serial('without the grants, only a pod that asks is refused; restored, the grants are judged', async (t) => {
  await chart.stopInjector();
  t.teardown(() => chart.startInjector());
  await kubectlOk(['-n', RELEASE_NAMESPACE, 'delete', 'configmap', GRANTS]);

  const asking = await once(false, plain('asking', { 'sfd-sidecar.io/inject': 'true' }));
  t.not(asking.code, 0, 'a pod that asks is refused');
  t.regex(asking.stderr, noParamsDenial());
  t.log(`kubectl create: ${asking.stderr.trim()}`);
  const other = await create(plain('other', { app: 'other' }));
  t.is(other.code, 0, `a pod that does not ask is created: ${other.stderr}`);
  const copied = await carrying('copied', 'billing');
  delete copied.metadata.labels['sfd-sidecar.io/inject'];
  const unjudged = await create(copied);
  t.not(unjudged.code, 0, 'a copied sidecar in a pod that does not ask is still refused');
  t.regex(unjudged.stderr, policyDenial('a pod with the sfd-sidecar must be one the injector judges'));

  await chart.upgrade();
  const granted = await once(true, await carrying('billing', 'billing'));
  t.is(granted.code, 0, `a granted reader is admitted: ${granted.stderr}`);
  t.is((await create(await carrying('billing', 'billing'))).code, 0, 'and created');
  const ungranted = await create(await carrying('orders', 'orders'));
  t.not(ungranted.code, 0, 'an ungranted reader is refused');
  t.regex(
    ungranted.stderr,
    policyDenial('the sfd-sidecar container may sign only with profiles the entitlement policy grants'),
  );
});
