// Whatever JSON a review carries in any position of its pod, the webhook answers it over real HTTPS
// with an AdmissionReview for that uid: the pod injected, left alone, or refused (an ill-typed one with
// Sidecar.PodInvalid), never an HTTP error, which `failurePolicy: Ignore` would read as "admit".
import test from 'ava';
import fc from 'fast-check';
import { startInjectorStack } from '../helpers/injector-stack.js';

type Path = readonly (string | number)[];

/** A pod using every field the injection reads, with the sidecar asked for by label and annotations. */
const BASE = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    generateName: 'web-',
    namespace: 'shop',
    labels: { app: 'web', 'sfd-sidecar.io/inject': 'true' },
    annotations: {
      'sfd-sidecar.io/profile': 'billing',
      'sfd-sidecar.io/listen-port': '7000',
      'prometheus.io/port': '1',
    },
  },
  spec: {
    serviceAccountName: 'robot',
    serviceAccount: 'robot',
    shareProcessNamespace: false,
    hostNetwork: false,
    hostPID: false,
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    securityContext: { runAsUser: 1000, runAsNonRoot: true },
    resources: { requests: { cpu: '1' }, limits: { memory: '1Gi' } },
    os: { name: 'linux' },
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }],
        },
      },
    },
    volumes: [
      { name: 'data', secret: { secretName: 'other' } },
      { name: 'all', projected: { sources: [{ secret: { name: 'x' } }] } },
      { name: 'node', hostPath: { path: '/tmp' } },
    ],
    initContainers: [{ name: 'setup', image: 'example/setup:1', args: ['--port', '7001'] }],
    containers: [
      {
        name: 'web',
        image: 'example/web:1',
        command: ['web'],
        args: ['--listen=:8080'],
        ports: [{ containerPort: 8080, hostPort: 8080, name: 'http', protocol: 'TCP' }],
        env: [
          { name: 'PORT', value: '8080' },
          { name: 'K', valueFrom: { secretKeyRef: { name: 's', key: 'k' }, configMapKeyRef: { name: 'c' } } },
        ],
        envFrom: [{ secretRef: { name: 's' }, configMapRef: { name: 'c' } }],
        volumeMounts: [{ name: 'data', mountPath: '/d', readOnly: true, subPath: 'x' }],
        securityContext: {
          runAsUser: 1000,
          allowPrivilegeEscalation: false,
          privileged: false,
          capabilities: { add: ['CHOWN'], drop: ['ALL'] },
        },
        resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
        livenessProbe: { httpGet: { port: 8080 } },
        readinessProbe: { tcpSocket: { port: 'http' } },
        startupProbe: { grpc: { port: 9000 } },
        lifecycle: { postStart: { exec: { command: ['true'] } } },
        restartPolicy: 'Always',
        workingDir: '/w',
      },
    ],
  },
};

/** Every position of the pod: each member of each object and each entry of each list, the pod itself too. */
function positions(value: unknown, at: Path = []): Path[] {
  const here: Path[] = [at];
  if (Array.isArray(value)) return [...here, ...value.flatMap((entry, index) => positions(entry, [...at, index]))];
  if (value !== null && typeof value === 'object')
    return [...here, ...Object.entries(value).flatMap(([key, entry]) => positions(entry, [...at, key]))];
  return here;
}

function replaced(at: Path, value: unknown): unknown {
  if (at.length === 0) return value;
  const copy = structuredClone(BASE) as unknown as Record<string | number, unknown>;
  let parent = copy;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[at.at(-1)!] = value;
  return copy;
}

const POSITIONS = positions(BASE);

test('any JSON in any position of a pod gets an AdmissionReview answer, never an HTTP error', async (t) => {
  const stack = await startInjectorStack(t);
  let refused = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...POSITIONS),
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom('/mutate', '/mutate/namespace'),
      async (at, value, path) => {
        const review = {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          request: {
            uid: 'u-1',
            kind: { kind: 'Pod' },
            namespace: 'shop',
            operation: 'CREATE',
            object: replaced(at, value),
          },
        };
        const answer = await stack.post(path, JSON.stringify(review));
        if (answer.status !== 200) return false;
        const body = JSON.parse(answer.body) as {
          kind?: string;
          response?: { uid?: string; allowed?: boolean; status?: { message?: string } };
        };
        if (body.kind !== 'AdmissionReview' || body.response?.uid !== 'u-1') return false;
        if (body.response.allowed === false) refused += 1;
        return typeof body.response.allowed === 'boolean';
      },
    ),
    { numRuns: 400 },
  );
  t.true(refused > 0, 'some of the pods made were refused');
  t.false(stack.logs.lines().some((line) => line.level === 'error' || line.level === 'fatal'));
});

test('the shapes that once crashed the webhook are answered Sidecar.PodInvalid', async (t) => {
  const stack = await startInjectorStack(t);
  const cases: [string, unknown][] = [
    ['an annotation whose value is a number', replaced(['metadata', 'annotations', 'sfd-sidecar.io/profile'], 7)],
    ['spec: null', replaced(['spec'], null)],
    ['a hostPath that is a string', replaced(['spec', 'volumes', 2, 'hostPath'], '/')],
  ];
  for (const [title, pod] of cases) {
    const review = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: { uid: 'u-2', kind: { kind: 'Pod' }, namespace: 'shop', operation: 'CREATE', object: pod },
    };
    const answer = await stack.post('/mutate', JSON.stringify(review));
    t.is(answer.status, 200, title);
    const body = JSON.parse(answer.body) as { response: { allowed: boolean; status?: { message: string } } };
    t.false(body.response.allowed, title);
    t.regex(body.response.status?.message ?? '', /^Sidecar\.PodInvalid: /, title);
  }
});
