// Attacks on `inject --policy-file` as a CI gate (docs/deploying.md, "sfd-sidecar inject"; docs/threat-model.md,
// "The key boundary") by someone who writes the manifests the gate reads, written by a reader told only the
// rule: a document holding containers anywhere, of any kind, is judged by the key isolation rules, and one
// whose containers would read the key store fails the gate, naming the document and the rule. Each test hides
// an application that reads the key store Secret where a gate that knows only workload kinds and their
// template paths does not look, and asserts the gate exits non-zero with nothing on stdout. Getting through
// would have let the object's controller make pods that hold every key of the store, no sidecar in the way,
// with the gate's approval. The control: the same documents reading another Secret pass, named on stderr.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { stringify } from 'yaml';
import { runCli } from '../helpers/cli-process.js';

const KEYS = 'sfd-keys';
const POLICY = join(mkdtempSync(join(tmpdir(), 'sfd-gate-')), 'policy.yaml');
writeFileSync(POLICY, 'entitlements:\n  - namespace: shop\n    profiles: [default]\n');

const mounts = { volumeMounts: [{ name: 'k', mountPath: '/k' }] };
const keyVolume = (secret = KEYS) => ({ name: 'k', secret: { secretName: secret } });
const envFromKeys = (secret = KEYS) => ({ envFrom: [{ secretRef: { name: secret } }] });
const envKey = (secret = KEYS) => ({
  env: [{ name: 'K', valueFrom: { secretKeyRef: { name: secret, key: 'keystore.json' } } }],
});

/** Documents hiding a reader of the key store, each written with `secret` as the Secret it reads. */
const HIDDEN: Readonly<Record<string, (secret?: string) => object>> = {
  // Containers several levels down a custom resource, at a path no table of kinds names.
  'a custom resource nesting a pod spec deep down': (secret = KEYS) => ({
    apiVersion: 'example.com/v1',
    kind: 'Pipeline',
    metadata: { name: 'nightly', namespace: 'shop' },
    spec: {
      stages: [
        { name: 'a' },
        {
          name: 'b',
          runner: {
            pods: [{ spec: { volumes: [keyVolume(secret)], containers: [{ name: 'x', image: 'x', ...mounts }] } }],
          },
        },
      ],
    },
  }),
  // Tekton's shape: `steps`, not `containers`, each a container.
  'a Tekton Task step with the key in its environment': (secret = KEYS) => ({
    apiVersion: 'tekton.dev/v1',
    kind: 'Task',
    metadata: { name: 'publish', namespace: 'shop' },
    spec: {
      steps: [
        { name: 'build', image: 'golang:1.22' },
        { name: 'push', image: 'crane', ...envKey(secret) },
      ],
    },
  }),
  // Argo's shapes: a template's init containers and sidecars, and a container set.
  'an Argo WorkflowTemplate sidecar and container set': (secret = KEYS) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'WorkflowTemplate',
    metadata: { name: 'etl', namespace: 'shop' },
    spec: {
      templates: [
        {
          name: 'main',
          container: { image: 'alpine' },
          sidecars: [{ name: 'side', image: 'alpine', ...envFromKeys(secret) }],
        },
        { name: 'set', containerSet: { containers: [{ name: 'one', image: 'alpine', ...envKey(secret) }] } },
      ],
    },
  }),
  // A projected volume of the key store in a core PodTemplate's init container.
  'a PodTemplate init container mounting a projected key store': (secret = KEYS) => ({
    apiVersion: 'v1',
    kind: 'PodTemplate',
    metadata: { name: 'runner', namespace: 'shop' },
    template: {
      spec: {
        volumes: [{ name: 'k', projected: { sources: [{ configMap: { name: 'c' } }, { secret: { name: secret } }] } }],
        initContainers: [{ name: 'prime', image: 'busybox', ...mounts }],
        containers: [{ name: 'app', image: 'example/app:1' }],
      },
    },
  }),
  // The Secret is the key store because the pod template names it so (as the admission policy counts it).
  'a KEDA ScaledJob whose template names its own key store': (secret = KEYS) => ({
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledJob',
    metadata: { name: 'drain', namespace: 'shop' },
    spec: {
      jobTargetRef: {
        template: {
          metadata: { annotations: { 'sfd-sidecar.io/keystore-secret': 'team-keys' } },
          spec: { containers: [{ name: 'w', image: 'w', ...envFromKeys(secret === KEYS ? 'team-keys' : secret) }] },
        },
      },
    },
  }),
  // An object the API server runs as a pod, inside a List beside an ordinary Deployment.
  'a Knative Service inside a List': (secret = KEYS) => ({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'serving.knative.dev/v1',
        kind: 'Service',
        metadata: { name: 'quotes', namespace: 'shop' },
        spec: { template: { spec: { volumes: [keyVolume(secret)], containers: [{ image: 'q', ...mounts }] } } },
      },
    ],
  }),
  // A workload kind inject knows, opted out, so the injection's own rules never run on it.
  'a Deployment labelled out of injection': (secret = KEYS) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'legacy', namespace: 'shop' },
    spec: {
      selector: { matchLabels: { app: 'legacy' } },
      template: {
        metadata: { labels: { app: 'legacy', 'sfd-sidecar.io/inject': 'false' } },
        spec: { containers: [{ name: 'app', image: 'legacy', ...envKey(secret) }] },
      },
    },
  }),
  // A workload inject knows holding a second pod spec outside its template (an ephemeral debug container).
  'a Pod with an ephemeral container reading the key': (secret = KEYS) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'shop', labels: { 'sfd-sidecar.io/inject': 'false' } },
    spec: {
      containers: [{ name: 'web', image: 'web' }],
      ephemeralContainers: [{ name: 'debug', image: 'busybox', ...envFromKeys(secret) }],
    },
  }),
};

const gate = (input: string) => runCli(['inject', '--keystore-secret', KEYS, '--policy-file', POLICY, '-'], { input });

for (const [title, document] of Object.entries(HIDDEN)) {
  test(`gate: ${title} fails, the document and rule named`, async (t) => {
    for (const [format, text] of [
      ['yaml', stringify(document())],
      ['json', JSON.stringify(document())],
    ]) {
      const run = await gate(text!);
      t.is(run.code, 1, `${format}: the gate passed it: ${run.stderr}`);
      t.is(run.stdout, '', format);
      t.regex(run.stderr, /^error: \S+\/\S+ .*\(stdin.*\): key-access at \S+: /m, format);
    }
  });
}

test('control: the same documents reading another Secret pass the gate, each named', async (t) => {
  for (const [title, document] of Object.entries(HIDDEN)) {
    const text = stringify(document('reports-db'));
    const run = await gate(text);
    t.is(run.code, 0, `${title}: ${run.stderr}`);
    t.is(run.stdout.includes('reports-db'), true, title);
    t.regex(run.stderr, /^(left alone|injected) /m, title);
  }
});
