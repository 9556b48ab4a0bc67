// The entitlement policy on a real API server across the changes a release goes through: its grants
// are part of the key store admission policy itself, so turning them off and on again with helm
// upgrade, or uninstalling and installing the chart again, leaves the API server nothing to fetch
// before it judges a pod. After each change, once the API server has the policy as the chart renders
// it, a granted reader is admitted and an ungranted one refused, and no pod is ever refused for want
// of parameters.
import test, { type ExecutionContext } from 'ava';
import { policyDenial } from '../helpers/cluster/denials.js';
import { carrying } from '../helpers/cluster/carrying-pod.js';
import { installChart, type InstalledChart } from '../helpers/cluster/installed-chart.js';
import { freshNamespace, kubectl, kubectlOk, type Ran } from '../helpers/cluster/kube.js';

const NAMESPACE = 'sfd-grants';
const VALUES = [
  `policy.entitlements[0].namespace=${NAMESPACE}`,
  'policy.entitlements[0].serviceAccounts={checkout}',
  'policy.entitlements[0].profiles={billing}',
];
const ENTITLEMENT = policyDenial('the sfd-sidecar container may sign only with profiles the entitlement policy grants');
const NO_PARAMS = /no params found/;

let chart: InstalledChart;
test.before(async () => {
  chart = await installChart(VALUES);
  await freshNamespace(NAMESPACE);
  await kubectlOk(['-n', NAMESPACE, 'create', 'serviceaccount', 'checkout']);
});
test.after.always(() => chart?.uninstall());

const dryRun = (object: object): Promise<Ran> =>
  kubectl(['-n', NAMESPACE, 'create', '--dry-run=server', '-f', '-'], JSON.stringify(object));

/**
 * The answer to creating the ungranted reader once the API server judges by the policy the chart now
 * renders (`entitled`: with the entitlement rule or without): the server learns of a changed policy
 * through its watch, so an answer of the other state is asked again, within a minute.
 */
async function ungrantedOnce(entitled: boolean): Promise<Ran> {
  const object = await carrying('orders', 'orders');
  const deadline = Date.now() + 60_000;
  const stale = (ran: Ran) => ENTITLEMENT.test(ran.stderr) !== entitled;
  let tried = await dryRun(object);
  while (stale(tried) && !NO_PARAMS.test(tried.stderr) && Date.now() < deadline) tried = await dryRun(object);
  return tried;
}

/** With the grants in force: the ungranted reader refused for them, the granted one admitted. */
async function judgesGrants(t: ExecutionContext, when: string): Promise<void> {
  const ungranted = await ungrantedOnce(true);
  t.notRegex(ungranted.stderr, NO_PARAMS, `${when}: no pod is refused for want of parameters`);
  t.not(ungranted.code, 0, `${when}: an ungranted reader is refused`);
  t.regex(ungranted.stderr, ENTITLEMENT, when);
  const granted = await dryRun(await carrying('billing', 'billing'));
  t.is(granted.code, 0, `${when}: a granted reader is admitted: ${granted.stderr}`);
}

test.serial('grants turned off and on again with helm upgrade are judged at once', async (t) => {
  await chart.stopInjector();
  t.teardown(() => chart.startInjector());
  await judgesGrants(t, 'installed');

  await chart.upgrade([], ['policy.entitlements=[]']);
  const off = await ungrantedOnce(false);
  t.is(off.code, 0, `without grants the API server judges no profile: ${off.stderr}`);

  await chart.upgrade(VALUES);
  await judgesGrants(t, 'turned on again');
});

test.serial('grants of a chart uninstalled and installed again are judged at once', async (t) => {
  await chart.uninstall();
  chart = await installChart(VALUES);
  await chart.stopInjector();
  t.teardown(() => chart.startInjector());
  await judgesGrants(t, 'installed again');
  const created = await kubectl(
    ['-n', NAMESPACE, 'create', '-f', '-'],
    JSON.stringify(await carrying('billing', 'billing')),
  );
  t.is(created.code, 0, `and the granted reader is created: ${created.stderr}`);
});
