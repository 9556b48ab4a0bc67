// The webhook's answers for pods that cannot take the sidecar, over real HTTPS: refused when the pod
// asked itself, admitted without the sidecar, its decision recorded, with a warning (and counted) when
// only its namespace asked, so a
// namespace label never blocks an unrelated pod; and a pod whose fields have the wrong types answered
// with a catalog code inside a review, never an HTTP error that `failurePolicy: Ignore` would admit.
import test from 'ava';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { send } from '../helpers/http.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { eventually } from '../helpers/time.js';

interface Review {
  response: {
    allowed: boolean;
    patch?: string;
    warnings?: string[];
    status?: { code: number; message: string };
  };
}

const reviewOf = (object: unknown) =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u-1',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      namespace: 'shop',
      operation: 'CREATE',
      object,
    },
  });

const windowsPod = (labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'iis', labels },
  spec: { os: { name: 'windows' }, containers: [{ name: 'iis', image: 'example/iis:1' }] },
});

test('a Windows pod is skipped with a warning when only its namespace asked, refused when it asked', async (t) => {
  const stack = await startInjectorStack(t);
  const skipped = JSON.parse((await stack.post('/mutate/namespace', reviewOf(windowsPod()))).body) as Review;
  t.true(skipped.response.allowed);
  const recorded = JSON.parse(Buffer.from(skipped.response.patch!, 'base64').toString()) as unknown;
  t.deepEqual(
    recorded,
    [{ op: 'add', path: '/metadata/annotations', value: { 'sfd-sidecar.io/decision': 'skipped: windows' } }],
    'admitted without the sidecar, only its decision recorded',
  );
  t.regex(skipped.response.warnings?.join('\n') ?? '', /Pod iis in shop was left without the sidecar: .*Windows/);
  const asked = windowsPod({ 'sfd-sidecar.io/inject': 'true' });
  const refused = JSON.parse((await stack.post('/mutate/namespace', reviewOf(asked))).body) as Review;
  t.false(refused.response.allowed);
  t.regex(refused.response.status!.message, /sfd-sidecar cannot be added to Pod iis in shop: it runs on Windows/);
  const samples = parseExposition((await send(`${stack.adminUrl}/metrics`)).body.toString());
  t.is(valueOf(samples, 'sfd_injector_decisions_total', { decision: 'skipped', reason: 'windows' }), 1);
  t.is(valueOf(samples, 'sfd_injector_decisions_total', { decision: 'refused', reason: 'windows' }), 1);
});

test('ill-typed pods get a review refusing them with Sidecar.PodInvalid, a log line each, no crash', async (t) => {
  const stack = await startInjectorStack(t);
  const shapes: Record<string, unknown>[] = [
    { containers: [null] },
    { containers: [{ name: 'app', image: 'a', env: 'x' }] },
    { containers: [{ name: 'app', image: 'a' }], initContainers: {} },
    { containers: [{ name: 'app', image: 'a', ports: [{ containerPort: 'http' }] }] },
  ];
  const pods = [
    ...shapes.map((spec) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' }, spec })),
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bad', annotations: { 'sfd-sidecar.io/inject': 7 } },
      spec: { containers: [{ name: 'app', image: 'a' }] },
    },
  ];
  for (const pod of pods) {
    for (const path of ['/mutate', '/mutate/namespace']) {
      const answer = await stack.post(path, reviewOf(pod));
      t.is(answer.status, 200, `${path} ${JSON.stringify(pod.spec)}`);
      const review = JSON.parse(answer.body) as Review;
      t.false(review.response.allowed);
      t.regex(review.response.status!.message, /^Sidecar\.PodInvalid: Pod bad in shop: pod\./);
    }
  }
  t.true(
    await eventually(
      () =>
        stack.logs.lines().filter((line) => line.event === 'admission review' && line.reason === 'pod-shape').length ===
        10,
    ),
  );
  t.is(stack.logs.lines().filter((line) => line.level === 'error' || line.level === 'fatal').length, 0);
  t.is((await send(`${stack.adminUrl}/readyz`)).status, 200);
});

test('an upstream-url with credentials is refused without repeating them in the answer or the log', async (t) => {
  const stack = await startInjectorStack(t);
  const [user, password] = ['url-user-5e2a', 'url-password-9f3c'];
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web',
      labels: { 'sfd-sidecar.io/inject': 'true' },
      annotations: { 'sfd-sidecar.io/upstream-url': `https://${user}:${password}@gateway.example/` },
    },
    spec: { containers: [{ name: 'web', image: 'example/web:1' }] },
  };
  const answer = await stack.post('/mutate', reviewOf(pod));
  const review = JSON.parse(answer.body) as Review;
  t.false(review.response.allowed);
  t.regex(
    review.response.status!.message,
    /sfd-sidecar\.io\/upstream-url: .*"https:\/\/gateway\.example\/ \(with credentials\)"/,
  );
  t.true(await eventually(() => stack.logs.lines().some((line) => line.event === 'admission review')));
  for (const secret of [user, password]) {
    t.false(answer.body.includes(secret), 'the answer repeats the credentials');
    t.false(stack.logs.text().includes(secret), 'the log repeats the credentials');
  }
});
