// A pod whose free-form fields nest deeply, by someone with pod-create rights: the API server keeps
// `metadata.managedFields[].fieldsV1` as the client sent it, so a pod may carry thousands of levels
// there. Were judging it to overflow the stack, the webhook would answer HTTP 500, and under
// `failurePolicy: Ignore` the API server would admit the pod unjudged, here with a copied sidecar that
// signs as a profile its account is not entitled to. Stopped: the webhook reads only the fields its
// rules need and walks the pod's values without recursion, so the pod is judged and refused. `inject`,
// which writes a changed manifest out whole, reads no manifest nested that deep and says so; nor does
// it stop on an object whose kind (`constructor`) names what every object inherits.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { admissionReviewOf } from '../helpers/admission-review.js';
import { runCli } from '../helpers/cli-process.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { DEFAULTS } from '../helpers/injection.js';
import { parseEntitlementPolicy } from '../../src/injection/policy/entitlement-policy.js';
import type { PodTemplate } from '../../src/injection/pod.js';

const POLICY_TEXT = 'entitlements:\n  - namespace: shop\n    serviceAccounts: [checkout]\n    profiles: [billing]\n';
const parsed = parseEntitlementPolicy(POLICY_TEXT);
if (!parsed.ok) throw new Error(parsed.problems.join('; '));
const ENTITLEMENTS = parsed.policy;
const POLICY_FILE = join(mkdtempSync(join(tmpdir(), 'sfd-deep-')), 'policy.yaml');
writeFileSync(POLICY_FILE, POLICY_TEXT);
const INJECT = ['inject', '--keystore-secret', 'sfd-keys', '--policy-file', POLICY_FILE, '--image', DEFAULTS.image];
const INJECT_IN_SHOP = [...INJECT, '--namespace', 'shop', '-'];

/** `fieldsV1` nested `levels` deep, as a client may send it: `{"f:":{"f:":...{}}}`. */
function nestedFields(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < levels; level += 1) value = { 'f:': value };
  return value;
}

/**
 * A pod as `inject` makes it for the shop's checkout account (entitled to billing), its sidecar then
 * switched to sign as payroll, and a managedFields entry 2,500 levels deep (about 18 KB).
 */
async function deepNonEntitledPod(): Promise<PodTemplate & { metadata: Record<string, unknown> }> {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web',
      labels: { 'sfd-sidecar.io/inject': 'true' },
      annotations: { 'sfd-sidecar.io/profile': 'billing' },
    },
    spec: {
      serviceAccountName: 'checkout',
      containers: [{ name: 'web', image: 'example/web:1', securityContext: { runAsUser: 1000 } }],
    },
  };
  const injected = await runCli(INJECT_IN_SHOP, { input: JSON.stringify(pod) });
  if (injected.code !== 0) throw new Error(injected.stderr);
  const made = parse(injected.stdout) as PodTemplate & { metadata: Record<string, unknown> };
  const sidecar = made.spec.initContainers!.find((c) => c.name === 'sfd-sidecar')!;
  sidecar.env = sidecar.env!.map((e) => (e.name === 'SFD_PROFILE' ? { name: e.name, value: 'payroll' } : e));
  made.metadata.managedFields = [
    {
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: nestedFields(2500),
    },
  ];
  return made;
}

test('webhook: a non-entitled sidecar under 2,500 levels of managedFields is refused, not a 500', async (t) => {
  const pod = await deepNonEntitledPod();
  const body = admissionReviewOf(pod);
  t.true(body.length > 18_000, 'the review carries the 18 KB entry');
  const stack = await startInjectorStack(t, DEFAULTS, { policy: () => ENTITLEMENTS });
  for (const path of ['/mutate', '/mutate/namespace']) {
    const answer = await stack.post(path, body);
    t.is(answer.status, 200, `${path}: ${answer.body}`);
    const review = JSON.parse(answer.body) as {
      kind: string;
      response: { uid: string; allowed: boolean; status?: { message: string } };
    };
    t.is(review.kind, 'AdmissionReview', path);
    t.is(review.response.uid, '00000000-0000-4000-8000-000000000001', path);
    t.false(review.response.allowed, `${path}: the pod is admitted`);
    t.regex(review.response.status?.message ?? '', /may not use profile payroll/, path);
  }
});

test('inject: the same pod gets a clear error and exit 1, never a stack trace', async (t) => {
  const pod = await deepNonEntitledPod();
  const run = await runCli(INJECT_IN_SHOP, { input: JSON.stringify(pod) });
  t.is(run.code, 1);
  t.is(run.stdout, '');
  t.regex(run.stderr, /^error: stdin.*: collections nested deeper than 500 levels$/m);
  t.notRegex(run.stderr, /unexpected failure|Maximum call stack|\n\s+at /);
});

test('inject: an object whose kind names what every object inherits is left alone, never a crash', async (t) => {
  for (const kind of ['constructor', '__proto__', 'toString']) {
    const manifest = `apiVersion: v1\nkind: ${kind}\nmetadata: {name: x}\nspec: {containers: [{name: a, image: b}]}\n`;
    const run = await runCli([...INJECT, '-'], { input: manifest });
    t.is(run.code, 0, `${kind}: ${run.stderr}`);
    t.is(run.stdout, manifest, kind);
    t.notRegex(run.stderr, /unexpected failure/, kind);
  }
});
