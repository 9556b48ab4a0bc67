// Attacks on the key boundary (docs/threat-model.md, "The key boundary") by someone with pod-create
// rights in a namespace, each written by a reader told only what the rules promise. Each test asserts the
// secure outcome; its comment says what input it tries, through which path (inject, webhook, admission
// policy), and what getting through would have achieved.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { parse } from 'yaml';
import { refusals, renderedPolicy, type AdmissionInput } from '../helpers/admission-policy.js';
import { admissionReviewOf } from '../helpers/admission-review.js';
import { runCli } from '../helpers/cli-process.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { DEFAULTS } from '../helpers/injection.js';
import { kubectlRead } from '../helpers/manifest-corpus.js';
import { kubeTool } from '../helpers/k8s-tools.js';
import { parseEntitlementPolicy } from '../../src/injection/policy/entitlement-policy.js';
import type { Container, EnvVar, PodTemplate } from '../../src/injection/pod.js';

type Pod = PodTemplate & { apiVersion: string; kind: string; metadata: NonNullable<PodTemplate['metadata']> };
interface Review {
  response: { allowed: boolean; patch?: string; status?: { code: number; message: string } };
}

const POLICY_TEXT = 'entitlements:\n  - namespace: shop\n    serviceAccounts: [checkout]\n    profiles: [billing]\n';
const parsed = parseEntitlementPolicy(POLICY_TEXT);
if (!parsed.ok) throw new Error(parsed.problems.join('; '));
const ENTITLEMENTS = parsed.policy;
const POLICY_FILE = join(mkdtempSync(join(tmpdir(), 'sfd-attack-')), 'policy.yaml');
writeFileSync(POLICY_FILE, POLICY_TEXT);
const INJECT = [
  'inject',
  '--keystore-secret',
  'sfd-keys',
  '--policy-file',
  POLICY_FILE,
  '--image',
  DEFAULTS.image,
  '--namespace',
  'shop',
];

const VAP = renderedPolicy();
const policyRefusals = (input: AdmissionInput): string[] => refusals(VAP, input);
/** The API server drops nulls before CEL sees the object. */
const withoutNulls = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v === null ? undefined : v))) as T;

const KEYSTORE = JSON.stringify({
  profiles: {
    billing: { keys: [{ accessKeyId: 'AKIDBILLING', accessKeySecret: 'TOPSECRET-billing-0123456789' }] },
    payroll: { keys: [{ accessKeyId: 'AKIDPAYROLL', accessKeySecret: 'TOPSECRET-payroll-0123456789' }] },
  },
});

/** A pod as `inject` makes it for the shop's checkout account, signing as billing (entitled). */
async function injectedPod(spec: Partial<Pod['spec']> = {}, annotations: Record<string, string> = {}): Promise<Pod> {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web',
      labels: { 'sfd-sidecar.io/inject': 'true' },
      annotations: { 'sfd-sidecar.io/profile': 'billing', ...annotations },
    },
    spec: {
      serviceAccountName: 'checkout',
      containers: [{ name: 'web', image: 'example/web:1', securityContext: { runAsUser: 1000 } }],
      ...spec,
    },
  };
  const result = await runCli(INJECT.concat('-'), { input: JSON.stringify(pod) });
  if (result.code !== 0) throw new Error(result.stderr);
  return parse(result.stdout) as Pod;
}

const sidecarOf = (pod: Pod): Container => pod.spec.initContainers!.find((c) => c.name === 'sfd-sidecar')!;
const setEnv = (container: Container, name: string, entry: Omit<EnvVar, 'name'>): void => {
  container.env = [...container.env!.filter((e) => e.name !== name), { name, ...entry }];
};

async function webhook(
  t: ExecutionContext,
  path: string,
  pod: object,
): Promise<{ status: number; review: Review | null; body: string }> {
  const stack = await startInjectorStack(t, DEFAULTS, { policy: () => ENTITLEMENTS });
  const answer = await stack.post(path, admissionReviewOf(pod));
  let review: Review | null;
  try {
    review = JSON.parse(answer.body) as Review;
  } catch {
    review = null;
  }
  return { status: answer.status, review, body: answer.body };
}

// ---------------------------------------------------------------------------------------------------
// 1. A carried sidecar that reads the key store Secret into a setting it may take from valueFrom
// (SFD_LOG_LEVEL, SFD_UPSTREAM_NO_PROXY...), its profile the entitled `billing`. Were it admitted, a
// configuration error quoting the value would put every key of the Secret (every tenant's) in the
// sidecar's log and, with terminationMessagePolicy FallbackToLogsOnError, in the pod's status. Stopped:
// a setting is read only from a key of its own name, never from a key store Secret, the termination
// message stays a file, and a long value is never quoted.
// ---------------------------------------------------------------------------------------------------
async function keyStoreAsSetting(): Promise<Pod> {
  const pod = await injectedPod();
  const sidecar = sidecarOf(pod);
  setEnv(sidecar, 'SFD_LOG_LEVEL', { valueFrom: { secretKeyRef: { name: 'sfd-keys', key: 'keystore.json' } } });
  sidecar.terminationMessagePolicy = 'FallbackToLogsOnError';
  return pod;
}

test('webhook: a carried sidecar reading the key store into SFD_LOG_LEVEL is refused', async (t) => {
  const pod = await keyStoreAsSetting();
  for (const path of ['/mutate', '/mutate/namespace']) {
    const { review } = await webhook(t, path, pod);
    t.false(review?.response.allowed, `${path}: the webhook keeps the sidecar`);
  }
});

test('admission policy: a sidecar reading the key store into SFD_LOG_LEVEL is refused', async (t) => {
  const pod = await keyStoreAsSetting();
  t.not(policyRefusals({ object: pod }).length, 0, 'the admission policy admits the sidecar');
});

test('sidecar: a key store given as a setting never reaches the sidecar output', async (t) => {
  // What the kubelet runs for the pod above: the sidecar's env with SFD_LOG_LEVEL = the Secret's value.
  const dir = mkdtempSync(join(tmpdir(), 'sfd-attack-keys-'));
  writeFileSync(join(dir, 'keystore.json'), KEYSTORE);
  const run = await runCli(['serve'], {
    env: {
      NODE_ENV: 'production',
      SFD_KEYSTORE_FILE: join(dir, 'keystore.json'),
      SFD_PROFILE: 'billing',
      SFD_UPSTREAM_URL: 'https://base-api.swiftfederation.com',
      SFD_LOG_LEVEL: KEYSTORE,
    },
  });
  const output = run.stdout + run.stderr;
  t.false(output.includes('TOPSECRET-payroll'), 'the sidecar printed the payroll secret');
  t.false(output.includes('TOPSECRET-billing'), 'the sidecar printed the billing secret');
});

// ---------------------------------------------------------------------------------------------------
// 2. In a namespace labelled sfd-sidecar.io/inject=enabled, a pod without the inject label but with the
// annotation sfd-sidecar.io/inject: "false" reaches /mutate/namespace (NotIn ["false"] matches a missing
// label), carrying a copied sidecar that signs as `payroll`, to which its account is not entitled.
// Stopped: the webhook asks by label only, and a pod carrying a sidecar is judged whole even when it
// opts out, by the webhook and by `inject` alike.
// ---------------------------------------------------------------------------------------------------
async function optedOutByAnnotation(): Promise<Pod> {
  const pod = await injectedPod();
  setEnv(sidecarOf(pod), 'SFD_PROFILE', { value: 'payroll' });
  delete pod.metadata.labels!['sfd-sidecar.io/inject'];
  pod.metadata.annotations!['sfd-sidecar.io/inject'] = 'false';
  return pod;
}

test('webhook+policy: an opt-out annotation does not admit an unjudged, non-entitled sidecar', async (t) => {
  const pod = await optedOutByAnnotation();
  const { review } = await webhook(t, '/mutate/namespace', pod);
  const admittedByWebhook = review?.response.allowed === true;
  const policy = policyRefusals({ object: pod, namespaceLabels: { 'sfd-sidecar.io/inject': 'enabled' } });
  t.false(admittedByWebhook && policy.length === 0, 'webhook allowed it and the admission policy admits it');
});

test('inject: an opt-out annotation does not pass a carried, non-entitled sidecar through', async (t) => {
  const pod = await optedOutByAnnotation();
  const run = await runCli(INJECT.concat('-'), { input: JSON.stringify(pod) });
  t.is(run.code, 1, `inject exited ${run.code} and printed the payroll sidecar unjudged: ${run.stderr}`);
});

// ---------------------------------------------------------------------------------------------------
// 3. A shared process namespace whose app container sets securityContext.runAsUser: null (YAML `~`) over
// a pod-level root (or the sidecar's) user. Kubernetes reads null as absent and runs the app as the pod's
// user, which reads /proc/<sidecar>/root/etc/sfd-sidecar/keys. Stopped: the rules judge a null as absent,
// as the API server does.
// ---------------------------------------------------------------------------------------------------
const nullUserPod = (podUser: number) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    labels: { 'sfd-sidecar.io/inject': 'true' },
    annotations: { 'sfd-sidecar.io/profile': 'billing' },
  },
  spec: {
    serviceAccountName: 'checkout',
    shareProcessNamespace: true,
    securityContext: { runAsUser: podUser },
    containers: [
      { name: 'web', image: 'example/web:1', securityContext: { runAsUser: null, allowPrivilegeEscalation: false } },
    ],
  },
});

test('webhook: runAsUser null does not hide a root app in a shared process namespace', async (t) => {
  for (const user of [0, 65532]) {
    const { review } = await webhook(t, '/mutate', nullUserPod(user));
    t.false(review?.response.allowed, `pod-level runAsUser ${user}: injected`);
  }
});

test('inject: runAsUser ~ does not hide a root app in a shared process namespace', async (t) => {
  const yaml =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations: {sfd-sidecar.io/profile: billing}\n' +
    'spec:\n  serviceAccountName: checkout\n  shareProcessNamespace: true\n' +
    '  securityContext:\n    runAsUser: 0\n  containers:\n  - name: web\n    image: example/web:1\n' +
    '    securityContext:\n      runAsUser: ~\n      allowPrivilegeEscalation: false\n';
  const run = await runCli(INJECT.concat('-'), { input: yaml });
  t.is(run.code, 1, 'inject added the sidecar');
});

test('policy: runAsUser null over a root pod user in a shared process namespace', async (t) => {
  // The pod as injection makes it with a user of its own, then the user made null over a root pod user.
  const own = nullUserPod(1000);
  own.spec.containers[0]!.securityContext.runAsUser = 1000 as unknown as null;
  const result = await runCli(INJECT.concat('-'), { input: JSON.stringify(own) });
  t.is(result.code, 0, result.stderr);
  const pod = parse(result.stdout) as Pod;
  pod.spec.securityContext = { runAsUser: 0 };
  pod.spec.containers[0]!.securityContext!.runAsUser = null as unknown as number;
  t.not(policyRefusals({ object: withoutNulls(pod) }).length, 0);
});

// ---------------------------------------------------------------------------------------------------
// 4. The pod names a decoy key store (annotation sfd-sidecar.io/keystore-secret: decoy) and its app mounts
// the configured key store sfd-keys under a volume of its own. Stopped: the rules keep the default key
// store Secret from the applications too, whichever Secret the pod's sidecar reads.
// ---------------------------------------------------------------------------------------------------
const decoyPod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    labels: { 'sfd-sidecar.io/inject': 'true' },
    annotations: { 'sfd-sidecar.io/profile': 'billing', 'sfd-sidecar.io/keystore-secret': 'decoy' },
  },
  spec: {
    serviceAccountName: 'checkout',
    volumes: [{ name: 'loot', secret: { secretName: 'sfd-keys' } }],
    containers: [{ name: 'web', image: 'example/web:1', volumeMounts: [{ name: 'loot', mountPath: '/loot' }] }],
  },
};

test('webhook: a decoy keystore-secret annotation does not let the app mount sfd-keys', async (t) => {
  const { review } = await webhook(t, '/mutate', decoyPod);
  t.false(review?.response.allowed, 'injected, with the app mounting the key store');
});

test('inject: a decoy keystore-secret annotation does not let the app mount sfd-keys', async (t) => {
  const run = await runCli(INJECT.concat('-'), { input: JSON.stringify(decoyPod) });
  t.is(run.code, 1, 'inject added the sidecar');
});

test('webhook: a carried sidecar without keys does not let the app mount sfd-keys', async (t) => {
  // Variant: the carried sidecar mounts an emptyDir as sfd-sidecar-keystore, so the webhook knows no key
  // store Secret at all, while the app mounts sfd-keys.
  const pod = await injectedPod();
  pod.spec.volumes = [
    { name: 'sfd-sidecar-keystore', emptyDir: {} },
    { name: 'loot', secret: { secretName: 'sfd-keys' } },
  ];
  pod.spec.containers[0]!.volumeMounts = [{ name: 'loot', mountPath: '/loot' }];
  const { review } = await webhook(t, '/mutate', pod);
  t.false(review?.response.allowed, 'the webhook keeps the pod');
});

test('policy: the app mounting keystore.existingSecret beside a decoy sidecar', async (t) => {
  // The pod as injection makes it with the decoy, then the app's mount of the real key store added.
  const { volumes: _volumes, ...spec } = decoyPod.spec;
  const plain = { ...decoyPod, spec: { ...spec, containers: [{ name: 'web', image: 'example/web:1' }] } };
  const result = await runCli(INJECT.concat('-'), { input: JSON.stringify(plain) });
  t.is(result.code, 0, result.stderr);
  const pod = parse(result.stdout) as Pod;
  pod.spec.volumes!.push({ name: 'loot', secret: { secretName: 'sfd-keys' } });
  pod.spec.containers[0]!.volumeMounts = [{ name: 'loot', mountPath: '/loot' }];
  t.regex(policyRefusals({ object: pod }).join('\n'), /only the sfd-sidecar container/);
});

// ---------------------------------------------------------------------------------------------------
// 5. A YAML merge key after an explicit key: YAML lets the explicit value win, kubectl's reader the later
// one, so `inject` would judge `privileged: false` while kubectl sends the merged `true` (or a mount of
// the key store volume, or a host PID namespace) with the sidecar. Stopped: `inject` refuses a mapping
// that sets a key both ways.
// ---------------------------------------------------------------------------------------------------
const MERGE_CASES: [string, string, (pod: Pod) => boolean][] = [
  [
    'a privileged app',
    '    securityContext:\n      privileged: false\n      <<: {privileged: true}\n',
    (pod) => pod.spec.containers.some((c) => c.securityContext?.privileged === true),
  ],
  [
    'an app mounting the key store volume',
    '    volumeMounts: []\n    <<: {volumeMounts: [{name: sfd-sidecar-keystore, mountPath: /loot}]}\n',
    (pod) =>
      pod.spec.containers.some(
        (c) => c.name === 'web' && (c.volumeMounts ?? []).some((m) => m.name === 'sfd-sidecar-keystore'),
      ),
  ],
  ['the host PID namespace', '', (pod) => pod.spec.hostPID === true],
];

for (const [title, containerYaml, reached] of MERGE_CASES) {
  test(`BYPASS inject: a YAML merge key does not smuggle in ${title}`, async (t) => {
    const specExtra = title === 'the host PID namespace' ? '  hostPID: false\n  <<: {hostPID: true}\n' : '';
    const yaml =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations:\n    sfd-sidecar.io/profile: billing\n' +
      `spec:\n  serviceAccountName: checkout\n${specExtra}  containers:\n  - name: web\n    image: example/web:1\n` +
      containerYaml;
    const run = await runCli(INJECT.concat('-'), { input: yaml });
    if (run.code !== 0) return t.pass('inject refused it');
    const objects = await kubectlRead(kubeTool('kubectl'), run.stdout);
    const pod = objects?.[0] as unknown as Pod;
    t.true(
      pod.spec.initContainers?.some((c) => c.name === 'sfd-sidecar'),
      'the sidecar is in the pod',
    );
    t.false(reached(pod), `kubectl sends ${title} with the sidecar`);
  });
}

// Merge keys that mean the same to YAML and kubectl are read as written: a merge key before the explicit
// key (the explicit one wins in both), and one that repeats an earlier explicit value.
const HARMLESS_MERGES: [string, string][] = [
  [
    'a merge key before the explicit key',
    '      <<: {privileged: true, runAsNonRoot: true}\n      privileged: false\n',
  ],
  [
    'a merge key that repeats an earlier explicit value',
    '      privileged: false\n      <<: {privileged: false, runAsNonRoot: true}\n',
  ],
];

for (const [title, securityContextYaml] of HARMLESS_MERGES) {
  test(`${title} means the same to inject and kubectl, and is injected`, async (t) => {
    const yaml =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations:\n    sfd-sidecar.io/profile: billing\n' +
      'spec:\n  serviceAccountName: checkout\n  containers:\n  - name: web\n    image: example/web:1\n' +
      `    securityContext:\n${securityContextYaml}`;
    const run = await runCli(INJECT.concat('-'), { input: yaml });
    t.is(run.code, 0, run.stderr);
    const pod = (await kubectlRead(kubeTool('kubectl'), run.stdout))?.[0] as unknown as Pod;
    t.true(pod.spec.initContainers?.some((c) => c.name === 'sfd-sidecar'));
    const web = pod.spec.containers.find((c) => c.name === 'web');
    t.deepEqual(web?.securityContext, { privileged: false, runAsNonRoot: true }, 'as kubectl reads the source');
  });
}

// ---------------------------------------------------------------------------------------------------
// 6. A pod created with its key store named by the annotation sfd-sidecar.io/keystore-secret (team-keys),
// then one UPDATE that drops the annotation and changes the sidecar's image, hoping the policy no longer
// sees a reader. Stopped: on an update the policy reads the old annotation too, and never lets the image
// of the sidecar change.
// ---------------------------------------------------------------------------------------------------
test('admission policy: an UPDATE cannot drop the keystore-secret annotation and swap the image', async (t) => {
  const before = await injectedPod({}, { 'sfd-sidecar.io/keystore-secret': 'team-keys' });
  t.deepEqual(policyRefusals({ object: before }), [], 'the pod as created is admitted');
  const after = structuredClone(before);
  delete after.metadata.annotations!['sfd-sidecar.io/keystore-secret'];
  sidecarOf(after).image = 'attacker.example/dump-keys:1';
  t.not(
    policyRefusals({ object: after, oldObject: before, operation: 'UPDATE' }).length,
    0,
    'the image of the container reading team-keys changed',
  );
});

test('policy: an UPDATE that swaps the image of a sidecar reading existingSecret', async (t) => {
  const before = await injectedPod();
  const after = structuredClone(before);
  sidecarOf(after).image = 'attacker.example/dump-keys:1';
  t.regex(
    policyRefusals({ object: after, oldObject: before, operation: 'UPDATE' }).join('\n'),
    /image of a container that reads the key store cannot change/,
  );
});

// ---------------------------------------------------------------------------------------------------
// 7. An env entry whose name looks like a port (PORT, *_ADDR...) with value null, which only a direct
// caller of the webhook sends (the API server drops nulls). It must be answered with an AdmissionReview,
// never an HTTP 500: the rules judge a null as absent.
// ---------------------------------------------------------------------------------------------------
test('webhook: an env entry PORT with value null is answered with an AdmissionReview', async (t) => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { 'sfd-sidecar.io/inject': 'true' } },
    spec: { containers: [{ name: 'web', image: 'example/web:1', env: [{ name: 'PORT', value: null }] }] },
  };
  const { status, review, body } = await webhook(t, '/mutate', pod);
  t.is(status, 200, body);
  t.not(review?.response, undefined);
});

// ---------------------------------------------------------------------------------------------------
// 8. A carried sidecar with SFD_LISTEN=0.0.0.0:8080 and a hostPort, so that every workload reaching the
// node signs with the pod's profile. Stopped: injection's own variables must have the form it writes.
// ---------------------------------------------------------------------------------------------------
test('webhook+policy: a carried sidecar cannot move its signing port off loopback', async (t) => {
  const pod = await injectedPod();
  const sidecar = sidecarOf(pod);
  setEnv(sidecar, 'SFD_LISTEN', { value: '0.0.0.0:8080' });
  sidecar.ports = [...(sidecar.ports ?? []), { containerPort: 8080, hostPort: 8080 }];
  const { review } = await webhook(t, '/mutate', pod);
  t.false(review?.response.allowed === true && policyRefusals({ object: pod }).length === 0, 'kept and admitted');
});

// ---------------------------------------------------------------------------------------------------
// 9. With a one-component sidecar repository (a locally loaded `sfd-sidecar`), an image from a registry
// whose host and port spell the repository: `sfd-sidecar:5000/attacker/dump:1`. Stopped: the policy
// matches the whole reference, the repository then a tag and a digest.
// ---------------------------------------------------------------------------------------------------
test('admission policy: a registry host:port spelled like the repository is not the sidecar image', async (t) => {
  const local = renderedPolicy('sidecar.image.repository=sfd-sidecar');
  const pod = await injectedPod();
  sidecarOf(pod).image = 'sfd-sidecar:5000/attacker/dump:1';
  t.not(refusals(local, { object: pod }).length, 0, 'the admission policy admits the foreign image');
});

// ---------------------------------------------------------------------------------------------------
// Attempts the product refuses.
// ---------------------------------------------------------------------------------------------------
test('webhook: duplicate SFD_PROFILE entries, literal and valueFrom, in either order', async (t) => {
  for (const order of ['literal-last', 'literal-first']) {
    const pod = await injectedPod();
    const sidecar = sidecarOf(pod);
    const literal = { name: 'SFD_PROFILE', value: 'billing' };
    const indirect = { name: 'SFD_PROFILE', valueFrom: { configMapKeyRef: { name: 'c', key: 'p' } } };
    sidecar.env = [
      ...sidecar.env!.filter((e) => e.name !== 'SFD_PROFILE'),
      ...(order === 'literal-last' ? [indirect, literal] : [literal, indirect]),
    ];
    const { review } = await webhook(t, '/mutate', pod);
    t.false(review?.response.allowed, order);
    t.not(policyRefusals({ object: pod }).length, 0, order);
  }
});

test('webhook and policy: capabilities spelled cap_sys_admin or CAP_SYS_PTRACE', async (t) => {
  for (const capability of ['cap_sys_admin', 'CAP_SYS_PTRACE', 'sys_admin']) {
    const pod = await injectedPod();
    pod.spec.containers[0]!.securityContext = { runAsUser: 1000, capabilities: { add: [capability] } };
    const { review } = await webhook(t, '/mutate', pod);
    t.false(review?.response.allowed, capability);
    t.not(policyRefusals({ object: pod }).length, 0, capability);
  }
});

test('inject: an octal runAsUser (0177774 = 65532) in a shared process namespace', async (t) => {
  const yaml =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  annotations: {sfd-sidecar.io/profile: billing}\n' +
    'spec:\n  serviceAccountName: checkout\n  shareProcessNamespace: true\n  containers:\n' +
    '  - name: web\n    image: example/web:1\n    securityContext:\n      runAsUser: 0177774\n' +
    '      allowPrivilegeEscalation: false\n';
  const run = await runCli(INJECT.concat('-'), { input: yaml });
  t.is(run.code, 1);
  t.regex(run.stderr, /runs as the sidecar's user 65532/);
});

test('webhook: the deprecated serviceAccount counts when serviceAccountName is empty', async (t) => {
  const pod = await injectedPod();
  pod.spec.serviceAccountName = '';
  pod.spec.serviceAccount = 'batch';
  const { review } = await webhook(t, '/mutate', pod);
  t.false(review?.response.allowed);
  t.regex(review?.response.status?.message ?? '', /service account batch\) may not use profile billing/);
});

test('policy: a look-alike reader not named sfd-sidecar, and a label opt-out', async (t) => {
  const pod = await injectedPod();
  sidecarOf(pod).name = 'sfd-sidecar2';
  t.regex(policyRefusals({ object: pod }).join('\n'), /only the sfd-sidecar container/);
  const optedOut = await injectedPod();
  optedOut.metadata.labels!['sfd-sidecar.io/inject'] = 'false';
  t.regex(
    policyRefusals({ object: optedOut, namespaceLabels: { 'sfd-sidecar.io/inject': 'enabled' } }).join('\n'),
    /must be one the injector judges/,
  );
});
