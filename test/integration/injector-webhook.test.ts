// The admission webhook over real HTTPS: AdmissionReview v1 in and out, the pod's JSON patch the very
// injection `inject` prints, pods it should not touch allowed unchanged, host-network pods refused,
// unknown annotations warned of, malformed reviews answered with an error (never a crash), and its
// certificate re-read when the files change.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import tls from 'node:tls';
import { join } from 'node:path';
import test from 'ava';
import { parse, stringify } from 'yaml';
import type { PatchOperation } from '../../src/injection/json-patch.js';
import { runCli } from '../helpers/cli-process.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { send } from '../helpers/http.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { applyPatch } from '../helpers/json-patch.js';
import { eventually } from '../helpers/time.js';
import { selfSignedCertificate } from '../helpers/tls-server.js';

interface Review {
  response: {
    uid: string;
    allowed: boolean;
    patchType?: string;
    patch?: string;
    warnings?: string[];
    status?: { code: number; message: string };
  };
}

/** A pod with these annotations, except the inject flag, which the webhook reads as a label only. */
const podObject = (annotations: Record<string, string> = {}, spec: Record<string, unknown> = {}) => {
  const { 'sfd-sidecar.io/inject': flag, ...rest } = annotations;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: 'web-5d9c7-',
      namespace: 'shop',
      labels: { app: 'web', ...(flag === undefined ? {} : { 'sfd-sidecar.io/inject': flag }) },
      annotations: rest,
    },
    spec: { containers: [{ name: 'web', image: 'example/web:4', ports: [{ containerPort: 8080 }] }], ...spec },
  };
};

const reviewOf = (object: unknown, kind = 'Pod') =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'b1f0c2a4-7d3e-4f5a-9c1b-2e8d6f0a1b3c',
      kind: { group: '', version: 'v1', kind },
      namespace: 'shop',
      operation: 'CREATE',
      object,
    },
  });

const patchOf = (review: Review): PatchOperation[] =>
  JSON.parse(Buffer.from(review.response.patch!, 'base64').toString('utf8')) as PatchOperation[];

/** The decision a patch records on the pod, when the patch records nothing else. */
function recordedOnly(review: Review): string | undefined {
  const operations = patchOf(review);
  if (!operations.every((op) => op.path.startsWith('/metadata/annotations'))) return undefined;
  const pod = applyPatch(podObject(), operations) as { metadata: { annotations?: Record<string, string> } };
  return pod.metadata.annotations?.['sfd-sidecar.io/decision'];
}

test('the patch the webhook returns gives exactly the pod `inject` prints, with the decision recorded', async (t) => {
  const stack = await startInjectorStack(t);
  const pod = podObject({ 'sfd-sidecar.io/inject': 'true' });
  const answer = await stack.post('/mutate', reviewOf(pod));
  t.is(answer.status, 200, answer.body);
  const review = JSON.parse(answer.body) as Review & { apiVersion: string; kind: string };
  t.like(review, {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: { uid: 'b1f0c2a4-7d3e-4f5a-9c1b-2e8d6f0a1b3c', allowed: true, patchType: 'JSONPatch' },
  });
  t.true(
    review.response.warnings!.some((w) =>
      /the signing port 8080 is declared by container web: the sidecar uses 18080/.test(w),
    ),
  );
  const patched = applyPatch(pod, patchOf(review));
  // The same defaults as the stack's, as flags.
  const file = join(mkdtempSync(join(tmpdir(), 'sfd-pod-')), 'pod.yaml');
  writeFileSync(file, stringify(pod));
  const printed = await runCli([
    'inject',
    '--keystore-secret',
    'sfd-keys',
    '--image',
    'ghcr.io/sfd-sidecar/sfd-sidecar:0.2.0',
    '--upstream-url',
    'https://base-api.swiftfederation.com',
    file,
  ]);
  t.is(printed.code, 0, printed.stderr);
  const printedPod = parse(printed.stdout) as { metadata: { annotations: Record<string, string> } };
  printedPod.metadata.annotations['sfd-sidecar.io/decision'] = 'injected';
  // Only `inject` records the empty fields it filled, for `uninject` to give back: the webhook's pod is
  // never uninjected.
  delete printedPod.metadata.annotations['sfd-sidecar.io/was-empty'];
  t.deepEqual(patched, printedPod);
});

test(
  '/mutate leaves pods that did not ask alone; ' + '/mutate/namespace injects them unless they say ' + '"false"',
  async (t) => {
    const stack = await startInjectorStack(t);
    const plain = JSON.parse((await stack.post('/mutate', reviewOf(podObject()))).body) as Review;
    t.like(plain.response, { uid: 'b1f0c2a4-7d3e-4f5a-9c1b-2e8d6f0a1b3c', allowed: true });
    t.is(recordedOnly(plain), 'skipped: not-asked', 'left as it is, its decision recorded');
    const namespaced = JSON.parse((await stack.post('/mutate/namespace', reviewOf(podObject()))).body) as Review;
    t.is(namespaced.response.patchType, 'JSONPatch');
    const optedOut = JSON.parse(
      (await stack.post('/mutate/namespace', reviewOf(podObject({ 'sfd-sidecar.io/inject': 'false' })))).body,
    ) as Review;
    t.like(optedOut.response, { uid: 'b1f0c2a4-7d3e-4f5a-9c1b-2e8d6f0a1b3c', allowed: true });
    t.is(recordedOnly(optedOut), 'skipped: opted-out');
    const already = applyPatch(podObject(), patchOf(namespaced));
    const twice = JSON.parse((await stack.post('/mutate/namespace', reviewOf(already))).body) as Review;
    t.is(twice.response.patch, undefined, 'a pod injected already gets no second sidecar');
  },
);

test(
  'a host-network pod that asks is refused with the ' + 'reason; an unknown annotation is a warning naming ' + 'it',
  async (t) => {
    const stack = await startInjectorStack(t);
    const refused = JSON.parse(
      (await stack.post('/mutate', reviewOf(podObject({ 'sfd-sidecar.io/inject': 'true' }, { hostNetwork: true }))))
        .body,
    ) as Review;
    t.false(refused.response.allowed);
    t.is(refused.response.status?.code, 403);
    t.regex(
      refused.response.status!.message,
      /sfd-sidecar cannot be added to Pod web-5d9c7-\* in shop: the pod uses the host network/,
    );
    const typo = JSON.parse(
      (
        await stack.post(
          '/mutate',
          reviewOf(podObject({ 'sfd-sidecar.io/inject': 'true', 'sfd-sidecar.io/profle': 'x' })),
        )
      ).body,
    ) as Review;
    t.true(typo.response.allowed);
    t.true(typo.response.warnings!.includes('sfd-sidecar: unknown annotation sfd-sidecar.io/profle; it is ignored'));
    t.true(
      await eventually(() =>
        stack.logs.lines().some((l) => l.event === 'admission review' && l.result === 'refused' && l.level === 'warn'),
      ),
    );
  },
);

test(
  'reviews it cannot read get 400 with the sidecar error shape, other objects are allowed unchanged, and it goes ' +
    'on',
  async (t) => {
    const stack = await startInjectorStack(t);
    for (const body of [
      'not json',
      '{}',
      '[]',
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: { uid: 'x' } }),
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {} }),
      '',
    ]) {
      const answer = await stack.post('/mutate', body);
      t.is(answer.status, 400, body);
      t.is((JSON.parse(answer.body) as { code: string }).code, 'Sidecar.AdmissionReviewInvalid', body);
    }
    const deployment = JSON.parse(
      (await stack.post('/mutate', reviewOf({ kind: 'Deployment', spec: {} }, 'Deployment'))).body,
    ) as Review;
    t.true(deployment.response.allowed);
    t.deepEqual(deployment.response.warnings, ['sfd-sidecar: not a Pod with containers; left unchanged']);
    const tooLarge = await stack.post('/mutate', Buffer.alloc(4 * 1024 * 1024, 32));
    t.is(tooLarge.status, 413);
    t.is((await stack.post('/elsewhere', reviewOf(podObject()))).status, 404);
    t.is(
      (JSON.parse((await stack.post('/mutate/namespace', reviewOf(podObject()))).body) as Review).response.patchType,
      'JSONPatch',
      'still answering',
    );
    const samples = parseExposition((await send(`${stack.adminUrl}/metrics`)).body.toString());
    t.is(valueOf(samples, 'sfd_injector_reviews_total', { result: 'invalid' }), 7);
    t.is(valueOf(samples, 'sfd_injector_reviews_total', { result: 'injected' }), 1);
    t.is((await send(`${stack.adminUrl}/readyz`)).status, 200);
  },
);

test('a renewed certificate is served once its files change, without a restart', async (t) => {
  const stack = await startInjectorStack(t);
  const before = await stack.post('/mutate', reviewOf(podObject()));
  const renewed = await selfSignedCertificate('localhost');
  copyFileSync(renewed.keyFile, join(stack.tlsDir, 'key.pem'));
  copyFileSync(renewed.certFile, join(stack.tlsDir, 'cert.pem'));
  const newCa = readFileSync(renewed.certFile, 'utf8');
  t.true(
    await eventually(
      async () =>
        (await stack.post('/mutate', reviewOf(podObject()), newCa).catch(() => null))?.certificate !==
        before.certificate,
      5000,
    ),
    'the new certificate is served',
  );
  t.true(await eventually(() => stack.logs.lines().some((l) => l.event === 'webhook certificate reloaded')));
});

test('`sfd-sidecar injector` without its certificate files stops at once, naming the settings', async (t) => {
  const run = await runCli(['injector', '--injector-listen', '127.0.0.1:0', '--admin-listen', '127.0.0.1:0']);
  t.is(run.code, 2);
  t.regex(run.stderr, /SFD_TLS_CERT_FILE: required/);
  t.regex(run.stderr, /SFD_TLS_KEY_FILE: required/);
});

test('the webhook offers only forward-secret TLS: a client with RSA key exchange only is refused', async (t) => {
  // An RSA certificate, as the chart and cert-manager issue by default: RSA key exchange is possible with it.
  const stack = await startInjectorStack(t, undefined, { keyType: 'rsa' });
  const handshake = (options: tls.ConnectionOptions): Promise<string> =>
    new Promise((resolve) => {
      const socket = tls.connect({
        host: '127.0.0.1',
        servername: 'localhost',
        port: stack.injector.address.port,
        ca: stack.ca(),
        ...options,
      });
      socket.once('secureConnect', () => {
        resolve(socket.getCipher().name);
        socket.destroy();
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(`refused: ${error.code ?? error.message}`));
    });
  t.regex(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'AES128-GCM-SHA256:AES256-SHA' }), /^refused/);
  t.regex(await handshake({ maxVersion: 'TLSv1.2' }), /^ECDHE-/);
  t.regex(await handshake({ maxVersion: 'TLSv1.1', minVersion: 'TLSv1' }), /^refused/);
  t.regex(await handshake({}), /^TLS_/, 'TLS 1.3 by default');
});
