// Whatever a client puts in a pod's free-form fields (metadata.managedFields[].fieldsV1, which the API
// server keeps as sent; annotation and label values, the last-applied-configuration annotation among
// them; env values; at every level of the pod, fields Kubernetes does not know and fields the rules read
// without a type check), however deep (thousands of levels) or wide (tens of thousands of members), with
// prototype keys (`__proto__`, `constructor`), numbers beyond a double (1e400) and lone surrogates, the
// webhook answers over real HTTPS with an AdmissionReview for that uid, never an HTTP error, which
// `failurePolicy: Ignore` would read as "admit". A pod carrying a sidecar that signs as a profile its
// account is not entitled to is refused every time, judging never fails (no error is logged), and the
// injector goes on serving.
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { startInjectorStack, type InjectorStack } from '../helpers/injector-stack.js';
import { DEFAULTS } from '../helpers/injection.js';
import { injectPod } from '../../src/injection/pipeline/inject-pod.js';
import { parseEntitlementPolicy } from '../../src/injection/policy/entitlement-policy.js';
import type { PodTemplate } from '../../src/injection/pod.js';

type Path = readonly (string | number)[];
type Json = Record<string | number, unknown>;

const parsed = parseEntitlementPolicy(
  'entitlements:\n  - namespace: shop\n    serviceAccounts: [checkout]\n    profiles: [billing]\n',
);
if (!parsed.ok) throw new Error(parsed.problems.join('; '));
const ENTITLEMENTS = parsed.policy;

/** A pod asking for the sidecar, with a managedFields entry and the annotation `kubectl apply` writes. */
const ASKING = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    namespace: 'shop',
    labels: { app: 'web', 'sfd-sidecar.io/inject': 'true' },
    annotations: {
      'sfd-sidecar.io/profile': 'billing',
      'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1","kind":"Pod"}',
    },
    managedFields: [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      },
    ],
  },
  spec: {
    serviceAccountName: 'checkout',
    containers: [
      {
        name: 'web',
        image: 'example/web:1',
        env: [{ name: 'MODE', value: 'prod' }],
        securityContext: { runAsUser: 1000 },
      },
    ],
  },
};

/** The pod as `inject` makes it for checkout (entitled to billing), its sidecar then signing as payroll. */
function nonEntitled(): PodTemplate {
  const where = { policy: ENTITLEMENTS, object: 'Pod/web', namespace: 'shop' };
  const injected = injectPod(structuredClone(ASKING), DEFAULTS, 'every-workload', {}, where);
  if (injected.outcome !== 'injected') throw new Error(`inject: ${injected.outcome}`);
  const pod = structuredClone<PodTemplate>(injected.template);
  const sidecar = pod.spec.initContainers!.find((c) => c.name === 'sfd-sidecar')!;
  sidecar.env = sidecar.env!.map((e) => (e.name === 'SFD_PROFILE' ? { name: e.name, value: 'payroll' } : e));
  return pod;
}

const NON_ENTITLED = nonEntitled();

const valueAt = (root: unknown, at: Path): unknown =>
  at.reduce<unknown>((value, key) => (value as Json | undefined)?.[key], root);

/** Every object of the pod (the pod itself too), where a field Kubernetes does not know may be added. */
function objectsOf(value: unknown, at: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((entry, index) => objectsOf(entry, [...at, index]));
  if (value === null || typeof value !== 'object') return [];
  return [at, ...Object.entries(value).flatMap(([key, member]) => objectsOf(member, [...at, key]))];
}

/** Where a pod's free-form values are: managedFields, annotation and label values, env values. */
function freeFormOf(pod: Json): Path[] {
  const metadata = pod.metadata as { annotations: object; labels: object };
  const envs = objectsOf(pod).filter((at) => at.at(-2) === 'env');
  return [
    ['metadata', 'managedFields', 0, 'fieldsV1'],
    ...Object.keys(metadata.annotations).map((key) => ['metadata', 'annotations', key]),
    ...Object.keys(metadata.labels).map((key) => ['metadata', 'labels', key]),
    ...envs.map((at) => [...at, 'value']),
  ];
}

// ---------------------------------------------------------------------------------------------------
// Values, described small (so that a counterexample prints short) and written as JSON text: JSON.stringify
// cannot write a value thousands of levels deep, nor 1e400. Each stays well under the 3 MiB a review
// may be.
// ---------------------------------------------------------------------------------------------------
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'length'];

const loneSurrogates = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});
/** Fields the rules read without the pod's shape check giving them a type first. */
const READ_FIELDS = [
  'terminationMessagePolicy',
  'terminationMessagePath',
  'lifecycle',
  'image',
  'workingDir',
  'emptyDir',
  'items',
  'gitRepo',
  'exec',
  'seccompProfile',
  'appArmorProfile',
  'procMount',
  'seLinuxOptions',
  'windowsOptions',
  'readOnlyRootFilesystem',
  'serviceAccountName',
  'serviceAccount',
  'key',
];
const key = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS),
  fc.constantFrom(...READ_FIELDS),
  loneSurrogates,
  fc.string({ maxLength: 12 }),
);
const shortKey = fc.constantFrom('f:', '', '__proto__', 'constructor', '\ud800');

type Value =
  | { deep: number; key: string; form: 'object' | 'list' | 'both'; leaf: string }
  | { wide: number; key: string; list: boolean }
  | { long: number; unit: string }
  | { text: string };

/** Objects and lists nested thousands of levels, under prototype keys too. */
const deep = fc.record({
  deep: fc.integer({ min: 1_000, max: 40_000 }),
  key: shortKey,
  form: fc.constantFrom('object' as const, 'list' as const, 'both' as const),
  leaf: fc.constantFrom('1', '"x"', '{}', '[]', 'null', '1e400'),
});
/** Objects of tens of thousands of members, lists of as many entries. */
const wide = fc.record({ wide: fc.integer({ min: 1_000, max: 60_000 }), key, list: fc.boolean() });
const long = fc.record({
  long: fc.integer({ min: 10_000, max: 300_000 }),
  unit: fc.constantFrom('x', '\ud800', 'é', '\\"', '\u0000'),
});
const oddScalar = fc.constantFrom(
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890123456789',
  '-0',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"__proto__"',
  '"constructor"',
  'true',
  'null',
);
/** Small objects whose keys are prototype keys or lone surrogates. */
const oddObject = fc
  .array(
    fc.tuple(
      key,
      fc.oneof(
        oddScalar,
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      ),
    ),
    {
      maxLength: 5,
    },
  )
  .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);

const value: fc.Arbitrary<Value> = fc.oneof(
  deep,
  wide,
  long,
  fc
    .oneof(
      oddScalar,
      oddObject,
      loneSurrogates.map((text) => JSON.stringify(text)),
    )
    .map((text) => ({ text })),
);

function jsonOf(described: Value): string {
  if ('deep' in described) {
    const k = JSON.stringify(described.key);
    const [opening, closing] = { object: [`{${k}:`, '}'], list: ['[', ']'], both: [`{${k}:[`, ']}'] }[described.form];
    return opening!.repeat(described.deep) + described.leaf + closing!.repeat(described.deep);
  }
  if ('wide' in described) {
    const k = JSON.stringify(described.key);
    const entries = Array.from({ length: described.wide }, (_, i) =>
      described.list ? (i % 2 === 0 ? '"sfd-sidecar"' : `{${k}:${i}}`) : i === 0 ? `${k}:0` : `"k${i}":${i}`,
    );
    return described.list ? `[${entries.join(',')}]` : `{${entries.join(',')}}`;
  }
  if ('long' in described) return JSON.stringify(described.unit.repeat(described.long));
  return described.text;
}

/** A value put where a string is expected, or as a string: the text of a deep value in an annotation. */
const placed = fc.record({ value, quoted: fc.boolean() });
const textOf = ({ value: described, quoted }: { value: Value; quoted: boolean }): string =>
  quoted ? JSON.stringify(jsonOf(described)) : jsonOf(described);

const MARK = '@@value@@';

/** The review's text with the value's text in place of the mark (never through a replacement pattern). */
const reviewText = (uid: string, object: unknown, text: string): string =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid, kind: { group: '', version: 'v1', kind: 'Pod' }, namespace: 'shop', operation: 'CREATE', object },
  }).replace(JSON.stringify(MARK), () => text);

/** The pod with the mark at a free-form value, or as a field Kubernetes does not know added to an object. */
function marked(pod: Json, change: { at: Path; add?: string }): Json {
  const copy = structuredClone(pod);
  const parent = valueAt(copy, change.add === undefined ? change.at.slice(0, -1) : change.at) as Json;
  const name = change.add ?? change.at.at(-1)!;
  Object.defineProperty(parent, name, { value: MARK, enumerable: true, writable: true, configurable: true });
  return copy;
}

const changes = (pod: Json) =>
  fc.oneof(
    fc.constantFrom(...freeFormOf(pod)).map((at) => ({ at })),
    fc.record({ at: fc.constantFrom(...objectsOf(pod)), add: key }),
  );

interface Answer {
  apiVersion?: string;
  kind?: string;
  response?: { uid?: string; allowed?: boolean; patch?: string; status?: { message?: unknown } };
}

/** What is wrong with the webhook's answer to the review of `uid`; null when nothing is. */
function problemOf(answer: { status: number; body: string }, uid: string, refused: boolean): string | null {
  if (answer.status !== 200) return `HTTP ${answer.status}: ${answer.body.slice(0, 200)}`;
  const review = JSON.parse(answer.body) as Answer;
  if (review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview') return 'not a review';
  if (review.response?.uid !== uid) return `the uid ${String(review.response?.uid)}, not ${uid}`;
  if (typeof review.response.allowed !== 'boolean') return 'neither allowed nor refused';
  if (refused && (review.response.allowed || typeof review.response.status?.message !== 'string'))
    return 'the non-entitled sidecar is admitted';
  // A patch, when there is one, is JSON the API server can apply.
  if (review.response.patch !== undefined)
    if (!Array.isArray(JSON.parse(Buffer.from(review.response.patch, 'base64').toString('utf8')))) return 'a bad patch';
  return null;
}

/** Posts every review the arbitraries make of the pod and checks each answer. */
async function reviewEvery(stack: InjectorStack, pod: Json, refused: boolean): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      changes(pod),
      placed,
      fc.uuid(),
      fc.constantFrom('/mutate', '/mutate/namespace'),
      async (change, where, uid, path) => {
        const answer = await stack.post(path, reviewText(uid, marked(pod, change), textOf(where)));
        const problem = problemOf(answer, uid, refused);
        if (problem !== null) throw new Error(problem);
      },
    ),
    { numRuns: 100 },
  );
}

test('deep, wide and odd values in any free-form field: a review refusing a non-entitled sidecar', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS, { policy: () => ENTITLEMENTS });
  await reviewEvery(stack, NON_ENTITLED, true);
  await goesOnServing(t, stack);
});

test('deep, wide and odd values in a pod that asks: an AdmissionReview for its uid, never an HTTP error', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS, { policy: () => ENTITLEMENTS });
  await reviewEvery(stack, ASKING, false);
  await goesOnServing(t, stack);
});

/** The injector still injects a plain pod, and judging never failed on the way. */
async function goesOnServing(t: ExecutionContext, stack: InjectorStack): Promise<void> {
  const after = await stack.post('/mutate', reviewText('after', ASKING, '0'));
  t.is(after.status, 200);
  t.truthy((JSON.parse(after.body) as Answer).response?.patch, 'a plain pod is still injected');
  const failed = stack.logs.lines().filter((line) => line.level === 'error' || line.level === 'fatal');
  t.deepEqual(failed, [], 'judging failed');
}
