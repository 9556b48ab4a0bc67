// A pod that already carries a sidecar is judged like any other, over real HTTPS: the profiles its
// sidecar signs with must be literal values the policy entitles, the key isolation rules hold with that
// sidecar's user, and the sidecar must be what injection makes. Only a pod that passes is left as it
// is; the attacker's copies below (cases as data) are each refused.
import test from 'ava';
import { parse } from 'yaml';
import { admissionReviewOf } from '../helpers/admission-review.js';
import { runCli } from '../helpers/cli-process.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { DEFAULTS } from '../helpers/injection.js';
import { parseEntitlementPolicy } from '../../src/injection/policy/entitlement-policy.js';
import { CARRIED_ATTACKS, setEnv, sidecarOf, type Pod } from '../helpers/hostile-pods.js';

interface Review {
  response: { allowed: boolean; patch?: string; status?: { message: string } };
}

const parsed = parseEntitlementPolicy(
  'entitlements:\n  - namespace: shop\n    serviceAccounts: [checkout]\n    profiles: [billing]\n',
);
if (!parsed.ok) throw new Error(parsed.problems.join('; '));
const POLICY = parsed.policy;

/** A pod as `inject` makes it for the shop's checkout account, signing as billing. */
async function injectedPod(): Promise<Pod> {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { 'sfd-sidecar.io/inject': 'true' } },
    spec: {
      serviceAccountName: 'checkout',
      containers: [{ name: 'web', image: 'example/web:1', securityContext: { runAsUser: 1000 } }],
    },
  };
  const result = await runCli(
    ['inject', '--keystore-secret', 'sfd-keys', '--profile', 'billing', '--image', DEFAULTS.image, '-'],
    { input: JSON.stringify(pod) },
  );
  if (result.code !== 0) throw new Error(result.stderr);
  return parse(result.stdout) as Pod;
}

test('a pod injected offline for an entitled account is left as it is', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS, { policy: () => POLICY });
  const answer = JSON.parse((await stack.post('/mutate', admissionReviewOf(await injectedPod()))).body) as Review;
  t.true(answer.response.allowed);
  t.deepEqual(JSON.parse(Buffer.from(answer.response.patch!, 'base64').toString()), [
    { op: 'add', path: '/metadata/annotations/sfd-sidecar.io~1decision', value: 'skipped: already-injected' },
  ]);
});

for (const [title, change, expected] of CARRIED_ATTACKS) {
  test(`refused through the webhook: ${title}`, async (t) => {
    const stack = await startInjectorStack(t, DEFAULTS, { policy: () => POLICY });
    const pod = await injectedPod();
    change(pod);
    for (const path of ['/mutate', '/mutate/namespace']) {
      const answer = JSON.parse((await stack.post(path, admissionReviewOf(pod))).body) as Review;
      t.false(answer.response.allowed, path);
      t.regex(answer.response.status!.message, expected);
    }
  });
}

test('a carried sidecar may sign only the operations its entitlement grants', async (t) => {
  const text = 'entitlements:\n  - namespace: shop\n    profiles: [billing]\n    operations: [getCustomer]\n';
  const parsed = parseEntitlementPolicy(text);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const stack = await startInjectorStack(t, DEFAULTS, { policy: () => parsed.policy });
  const pod = await injectedPod();
  const post = async (changed: Pod) =>
    (JSON.parse((await stack.post('/mutate', admissionReviewOf(changed))).body) as Review).response;
  setEnv(sidecarOf(pod), 'SFD_OPERATIONS', { value: '{"billing":{"operations":["getCustomer"]}}' });
  t.true((await post(pod)).allowed, 'within the grant');
  for (const value of ['{"billing":"*"}', '{"billing":{"operations":["getCustomer","deleteRateLimit"]}}', '{}']) {
    setEnv(sidecarOf(pod), 'SFD_OPERATIONS', { value });
    const answer = await post(pod);
    t.false(answer.allowed, value);
    t.regex(
      answer.status!.message,
      /its sidecar may sign operations of profile billing the entitlement policy does not grant/,
    );
  }
  sidecarOf(pod).env = sidecarOf(pod).env!.filter((e) => e.name !== 'SFD_OPERATIONS');
  t.false((await post(pod)).allowed, 'a sidecar without SFD_OPERATIONS signs every operation');
  // The kubelet expands $(SFD_PROFILE) to billing, and the later member wins once the sidecar reads it.
  const widened = '{"billing":{"operations":["getCustomer"]},"$(SFD_PROFILE)":"*"}';
  setEnv(sidecarOf(pod), 'SFD_OPERATIONS', { value: widened });
  const expanded = await post(pod);
  t.false(expanded.allowed, widened);
  t.regex(expanded.status!.message, /its SFD_OPERATIONS holds "\$\(", which the kubelet expands/);
  const repeated = '{"billing":{"operations":["getCustomer"]},"billing":"*"}';
  setEnv(sidecarOf(pod), 'SFD_OPERATIONS', { value: repeated });
  t.false((await post(pod)).allowed, repeated);
});

test('with the per-profile layout, a carried sidecar mounts exactly the files of its profiles', async (t) => {
  const defaults = { ...DEFAULTS, keystoreLayout: 'per-profile' as const };
  const stack = await startInjectorStack(t, defaults, { policy: () => POLICY });
  const injected = parse(
    (
      await runCli(
        ['inject', '--keystore-secret', 'sfd-keys', '--keystore-layout', 'per-profile', '--profile', 'billing'].concat([
          '--image',
          DEFAULTS.image,
          '-',
        ]),
        {
          input: JSON.stringify({
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'web', labels: { 'sfd-sidecar.io/inject': 'true' } },
            spec: { serviceAccountName: 'checkout', containers: [{ name: 'web', image: 'example/web:1' }] },
          }),
        },
      )
    ).stdout,
  ) as Pod;
  const post = async (pod: Pod) =>
    (JSON.parse((await stack.post('/mutate', admissionReviewOf(pod))).body) as Review).response;
  t.true((await post(injected)).allowed, 'as injection writes it');
  const keys = (pod: Pod) => pod.spec.volumes!.find((v) => v.name === 'sfd-sidecar-keystore')!.secret!;
  const changes: [string, (pod: Pod) => void][] = [
    ['the whole Secret', (pod) => delete keys(pod).items],
    [
      "payroll's file besides its own",
      (pod) => (keys(pod).items as unknown[]).push({ key: 'payroll.json', path: 'payroll.json' }),
    ],
    ["payroll's file under its own name", (pod) => (keys(pod).items = [{ key: 'payroll.json', path: 'billing.json' }])],
  ];
  for (const [title, change] of changes) {
    const pod = structuredClone(injected);
    change(pod);
    const answer = await post(pod);
    t.false(answer.allowed, title);
    t.regex(answer.status!.message, /does not list exactly the files of the profiles it signs with \(billing\.json\)/);
  }
  const twice = structuredClone(injected);
  sidecarOf(twice).env!.push({ name: 'SFD_PROFILE', value: 'billing' });
  t.regex((await post(twice)).status!.message, /its env names SFD_PROFILE twice/);
});
