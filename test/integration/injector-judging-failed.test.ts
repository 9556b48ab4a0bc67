// When judging a pod fails (an exception the rules did not foresee), the webhook still answers a review
// over real HTTPS, never an HTTP error that `failurePolicy: Ignore` would read as "admit": a refusal
// when the pod asked by its own label, carries a sidecar or reads the key store; otherwise the pod is
// admitted without the sidecar, with a warning and its decision recorded. Each such decision is counted
// under the reason judging-failed and logged as an error naming where judging failed. The failure is
// made real by an entitlement policy whose entries cannot be read: the rules fail on it as they would
// on any fault of their own, and no pod can make them fail once the fault is fixed.
import test from 'ava';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { send } from '../helpers/http.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { DEFAULTS } from '../helpers/injection.js';
import { eventually } from '../helpers/time.js';
import { injectPod } from '../../src/injection/pipeline/inject-pod.js';
import type { EntitlementPolicy } from '../../src/injection/policy/entitlement-policy.js';

interface Review {
  response: {
    uid: string;
    allowed: boolean;
    patch?: string;
    warnings?: string[];
    status?: { code: number; message: string };
  };
}

const UNREADABLE_POLICY = { entitlements: null } as unknown as EntitlementPolicy;

const reviewOf = (object: unknown): string =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid: 'u-judge', kind: { kind: 'Pod' }, namespace: 'shop', operation: 'CREATE', object },
  });

const podOf = (labels: Record<string, string>, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', labels },
  spec: { containers: [{ name: 'web', image: 'example/web:1' }], ...spec },
});

const ASKED = { 'sfd-sidecar.io/inject': 'true' };
const KEYSTORE_VOLUME = { volumes: [{ name: 'keys', secret: { secretName: DEFAULTS.keystoreSecret } }] };

/** A pod as `inject` makes it, without the label that asks: it reaches the rules through its namespace. */
function carryingSidecar(): object {
  const injected = injectPod(podOf({}), DEFAULTS, 'every-workload');
  if (injected.outcome !== 'injected') throw new Error(injected.outcome);
  const { metadata, ...rest } = injected.template;
  const labels = { ...metadata?.labels };
  delete labels['sfd-sidecar.io/inject'];
  return { ...rest, metadata: { ...metadata, labels } };
}

test('a failure while judging refuses a pod that asked, carries a sidecar or reads the key store', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS, { policy: () => UNREADABLE_POLICY });
  const cases: [string, string, object][] = [
    ['asked by its label', '/mutate', podOf(ASKED)],
    ['asked by its label, in an asking namespace', '/mutate/namespace', podOf(ASKED)],
    ['mounting the key store Secret', '/mutate/namespace', podOf({}, KEYSTORE_VOLUME)],
    ['carrying a sidecar', '/mutate/namespace', carryingSidecar()],
  ];
  for (const [title, path, pod] of cases) {
    const answer = await stack.post(path, reviewOf(pod));
    t.is(answer.status, 200, `${title}: ${answer.body}`);
    const review = JSON.parse(answer.body) as Review;
    t.is(review.response.uid, 'u-judge', title);
    t.false(review.response.allowed, title);
    t.regex(
      review.response.status?.message ?? '',
      /^sfd-sidecar cannot be added to Pod web in shop: the injector failed while judging it \(TypeError\)/,
      title,
    );
  }
  const samples = parseExposition((await send(`${stack.adminUrl}/metrics`)).body.toString());
  t.is(valueOf(samples, 'sfd_injector_decisions_total', { decision: 'refused', reason: 'judging-failed' }), 4);
  t.is(valueOf(samples, 'sfd_injector_reviews_total', { result: 'refused' }), 4);
  const lines = stack.logs.lines().filter((line) => line.event === 'admission review');
  t.is(lines.length, 4);
  for (const line of lines) {
    t.like(line, { level: 'error', result: 'refused', reason: 'judging-failed' });
    t.regex(String(line.failure), /^TypeError at \S+ \(entitlement-policy\.[jt]s:\d+:\d+\)$/);
  }
});

test('a failure while judging a pod only its namespace asked for leaves it without the sidecar', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS, { policy: () => UNREADABLE_POLICY });
  const answer = await stack.post('/mutate/namespace', reviewOf(podOf({ app: 'web' })));
  t.is(answer.status, 200, answer.body);
  const review = JSON.parse(answer.body) as Review;
  t.true(review.response.allowed);
  t.deepEqual(JSON.parse(Buffer.from(review.response.patch!, 'base64').toString()), [
    { op: 'add', path: '/metadata/annotations', value: { 'sfd-sidecar.io/decision': 'skipped: judging-failed' } },
  ]);
  t.deepEqual(review.response.warnings, [
    'sfd-sidecar: Pod web in shop was left without the sidecar: the injector failed while judging it (TypeError); ' +
      'its log names where',
  ]);
  const samples = parseExposition((await send(`${stack.adminUrl}/metrics`)).body.toString());
  t.is(valueOf(samples, 'sfd_injector_decisions_total', { decision: 'skipped', reason: 'judging-failed' }), 1);
  t.true(
    await eventually(() =>
      stack.logs
        .lines()
        .some((line) => line.level === 'error' && line.result === 'skipped' && line.reason === 'judging-failed'),
    ),
  );
});
