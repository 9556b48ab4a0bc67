// The key store admission policy's bindings, judged by the model of the API server: without an
// entitlement policy one binding judges every pod; with one, that binding still judges every pod without
// parameters, and the entitlement bindings judge the grants of the pods that ask for the sidecar only,
// so that while the API server has no parameters only those pods are refused.
import test from 'ava';
import { bindingMatches, boundRefusals, NO_PARAMS, renderedBoundPolicy } from '../helpers/admission-bindings.js';
import { renderedParams, renderedWebhooks } from '../helpers/admission-policy.js';
import { selects } from '../helpers/label-selector.js';
import { app, injected, sidecarOf, type Pod } from '../helpers/hostile-pods.js';

const ENTITLED = [
  'webhook.excludeNamespaces={legacy}',
  'policy.entitlements[0].namespace=shop',
  'policy.entitlements[0].serviceAccounts={checkout}',
  'policy.entitlements[0].profiles={billing}',
];
const BOUND = renderedBoundPolicy(...ENTITLED);
const PARAMS = renderedParams(...ENTITLED);
const entitlement = /entitlement policy grants/;

const plain = (labels: Record<string, string> = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', labels },
  spec: { containers: [app()] },
});

/** The pod inject prints for the checkout account, signing as `profile`, asking by its own label. */
async function reader(profile: string): Promise<Pod> {
  const pod = await injected(
    { containers: [app()], serviceAccountName: 'checkout' },
    { 'sfd-sidecar.io/profile': profile },
  );
  pod.metadata.labels = { ...pod.metadata.labels, 'sfd-sidecar.io/inject': 'true' };
  return pod;
}

test('without an entitlement policy, one binding without parameters judges every pod', (t) => {
  const bound = renderedBoundPolicy();
  t.is(bound.policy.paramKind, undefined);
  t.deepEqual(
    bound.bindings.map((b) => b.metadata.name),
    ['r-sfd-sidecar-keystore-mounts'],
  );
  t.is(bound.bindings[0]!.spec.paramRef, undefined);
  t.is(bound.bindings[0]!.spec.matchResources, undefined);
});

test('with one, the entitlement bindings match on a create exactly the pods the webhooks match', (t) => {
  t.deepEqual(BOUND.policy.paramKind, { apiVersion: 'v1', kind: 'ConfigMap' });
  const [everyPod, ...entitled] = BOUND.bindings;
  t.is(everyPod!.metadata.name, 'r-sfd-sidecar-keystore-mounts');
  t.is(everyPod!.spec.paramRef, undefined, 'the binding that judges every pod reads no parameters');
  t.is(everyPod!.spec.matchResources, undefined);
  t.deepEqual(
    entitled.map((b) => b.metadata.name),
    ['r-sfd-sidecar-keystore-mounts-entitlements-pods', 'r-sfd-sidecar-keystore-mounts-entitlements-namespaces'],
  );
  for (const binding of entitled)
    t.like(binding.spec.paramRef, { name: 'r-sfd-sidecar-entitlements', parameterNotFoundAction: 'Deny' });
  const webhooks = renderedWebhooks(...ENTITLED);
  const podLabels: Record<string, string>[] = [
    {},
    { 'sfd-sidecar.io/inject': 'true' },
    { 'sfd-sidecar.io/inject': 'enabled' },
  ];
  const declining: Record<string, string>[] = [
    { 'sfd-sidecar.io/inject': 'false' },
    { 'sfd-sidecar.io/injector': 'x', 'sfd-sidecar.io/inject': 'true' },
  ];
  let tried = 0;
  for (const namespace of ['shop', 'kube-system', 'sfd-system', 'legacy'])
    for (const namespaceLabels of [{}, ...podLabels.slice(1), { 'sfd-sidecar.io/inject': 'false' }])
      for (const labels of [...podLabels, ...declining]) {
        tried += 1;
        const object = plain(labels);
        const byWebhook = webhooks.some(
          (w) =>
            selects(w.namespaceSelector, { ...namespaceLabels, 'kubernetes.io/metadata.name': namespace }) &&
            selects(w.objectSelector, labels),
        );
        const byBinding = entitled.some((b) => bindingMatches(b, { object, namespace, namespaceLabels }));
        t.is(byBinding, byWebhook, `${namespace} ${JSON.stringify(namespaceLabels)} ${JSON.stringify(labels)}`);
        const updated = entitled.some((b) =>
          bindingMatches(b, { object, oldObject: object, operation: 'UPDATE', namespace, namespaceLabels }),
        );
        t.false(updated, 'an update is judged by the first binding only');
      }
  t.true(tried >= 80, `${tried} label combinations`);
});

test('while the API server has no parameters, only a pod that asks for the sidecar is refused', async (t) => {
  const refused = (object: Pod, namespace = 'shop', namespaceLabels: Record<string, string> = {}) =>
    boundRefusals(BOUND, { object, namespace, namespaceLabels });
  t.deepEqual(refused(plain({ app: 'web' })), [], 'a pod that does not ask');
  t.deepEqual(refused(plain({ 'sfd-sidecar.io/inject': 'true' }), 'kube-system'), [], 'one in an excluded namespace');
  t.deepEqual(
    refused(plain({ 'sfd-sidecar.io/inject': 'false' }), 'orders', { 'sfd-sidecar.io/inject': 'enabled' }),
    [],
    'one that declines in a namespace that asks',
  );
  t.deepEqual(refused(plain({ 'sfd-sidecar.io/inject': 'true' })), [NO_PARAMS], 'one that asks by its label');
  t.deepEqual(refused(plain(), 'orders', { 'sfd-sidecar.io/inject': 'enabled' }), [NO_PARAMS], 'by its namespace');
  t.deepEqual(refused(await reader('billing')), [NO_PARAMS], 'even a granted reader');
  const carried = await reader('payroll');
  delete carried.metadata.labels!['sfd-sidecar.io/inject'];
  t.true(
    refused(carried).some((m) => /one the injector judges/.test(m)),
    'a reader in a pod that does not ask is still refused by the binding that judges every pod',
  );
});

test('with the parameters, the entitlement bindings judge the grants and the first binding does not', async (t) => {
  const judged = (object: Pod) => boundRefusals(BOUND, { object, namespace: 'shop' }, PARAMS);
  t.deepEqual(judged(await reader('billing')), [], 'a granted reader');
  const ungranted = judged(await reader('payroll'));
  t.is(
    ungranted.filter((m) => entitlement.test(m)).length,
    1,
    `refused by its entitlement binding: ${ungranted.join('; ')}`,
  );
  const withoutParams = boundRefusals(
    { ...BOUND, bindings: BOUND.bindings.slice(0, 1) },
    {
      object: await reader('payroll'),
      namespace: 'shop',
    },
  );
  t.deepEqual(withoutParams, [], 'the binding without parameters leaves the grants to the others');
  const shapeless = await reader('billing');
  sidecarOf(shapeless).command = ['sh'];
  t.true(
    boundRefusals({ ...BOUND, bindings: BOUND.bindings.slice(0, 1) }, { object: shapeless, namespace: 'shop' }).some(
      (m) => /run its image as it is/.test(m),
    ),
    'it still judges the shape of every reader',
  );
});
