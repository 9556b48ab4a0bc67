// The key store admission policy's binding, judged by the model of the API server: with or without an
// entitlement policy, one binding without parameters judges every pod, and the grants are part of the
// policy itself, so a reader's profiles are judged without anything for the API server to fetch first.
import test from 'ava';
import { boundRefusals, renderedBoundPolicy } from '../helpers/admission-bindings.js';
import { app, injected, sidecarOf, type Pod } from '../helpers/hostile-pods.js';

const ENTITLED = [
  'webhook.excludeNamespaces={legacy}',
  'policy.entitlements[0].namespace=shop',
  'policy.entitlements[0].serviceAccounts={checkout}',
  'policy.entitlements[0].profiles={billing}',
  'policy.entitlements[1].namespace=orders',
  'policy.entitlements[1].profiles={default,payroll}',
];
const BOUND = renderedBoundPolicy(...ENTITLED);
const entitlement = /entitlement policy grants/;

/** The pod inject prints for the checkout account, signing as `profile`, asking by its own label. */
async function reader(profile: string): Promise<Pod> {
  const pod = await injected(
    { containers: [app()], serviceAccountName: 'checkout' },
    { 'sfd-sidecar.io/profile': profile },
  );
  pod.metadata.labels = { ...pod.metadata.labels, 'sfd-sidecar.io/inject': 'true' };
  return pod;
}

const onlyBinding = (bound: ReturnType<typeof renderedBoundPolicy>) => {
  const binding = bound.bindings[0] as unknown as { metadata: { name: string }; spec: Record<string, unknown> };
  return { names: bound.bindings.map((b) => b.metadata.name), spec: binding.spec };
};

for (const [title, values] of [
  ['without an entitlement policy', []],
  ['with one', ENTITLED],
] as const)
  test(`${title}, one binding without parameters judges every pod`, (t) => {
    const bound = renderedBoundPolicy(...values);
    t.false('paramKind' in bound.policy, 'the policy takes no parameters');
    const { names, spec } = onlyBinding(bound);
    t.deepEqual(names, ['r-sfd-sidecar-keystore-mounts']);
    t.false('paramRef' in spec);
    t.false('matchResources' in spec);
    t.deepEqual(spec.validationActions, ['Deny']);
  });

test('the grants are a table in the policy, keyed by namespace and by namespace.serviceaccount', (t) => {
  const table = BOUND.policy.variables.find((v) => v.name === 'grantTable');
  t.is(table?.expression, '{"orders": ",default,payroll,", "shop.checkout": ",billing,"}');
  t.false(
    renderedBoundPolicy().policy.variables.some((v) => v.name === 'grantTable'),
    'without entitlements no table (an empty map has no type) and no entitlement rule',
  );
  t.false(
    [...BOUND.policy.variables, ...BOUND.policy.validations].some((e) => /\bparams\b/.test(e.expression)),
    'no expression reads parameters',
  );
});

test('a granted reader that asks is admitted, an ungranted one refused for its entitlement', async (t) => {
  const judged = (object: Pod, namespace = 'shop') => boundRefusals(BOUND, { object, namespace });
  t.deepEqual(judged(await reader('billing')), [], 'granted to its service account');
  t.deepEqual(judged(await reader('payroll'), 'orders'), [], 'granted to its namespace');
  for (const [profile, namespace] of [
    ['payroll', 'shop'],
    ['billing', 'orders'],
    ['billing', 'legal'],
  ] as const) {
    const refused = judged(await reader(profile), namespace);
    t.is(refused.filter((m) => entitlement.test(m)).length, 1, `${profile} in ${namespace}: ${refused.join('; ')}`);
  }
});

test('a reader in a pod that does not ask, and a reader of another shape, are still refused', async (t) => {
  const carried = await reader('billing');
  delete carried.metadata.labels!['sfd-sidecar.io/inject'];
  t.true(
    boundRefusals(BOUND, { object: carried, namespace: 'shop' }).some((m) => /one the injector judges/.test(m)),
    'a copied sidecar in a pod that does not ask',
  );
  const shapeless = await reader('billing');
  sidecarOf(shapeless).command = ['sh'];
  t.true(
    boundRefusals(BOUND, { object: shapeless, namespace: 'shop' }).some((m) => /run its image as it is/.test(m)),
    'it still judges the shape of every reader',
  );
});
