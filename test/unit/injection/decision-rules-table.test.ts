// The injector's decision rules as one table: each row a pod and how it reached the rules, and the
// decision the injector takes on it with the rule that decided and its reason code. The rows call the
// pure decision directly, and the table must name every rule and every reason code, so that a rule or a
// reason added without a row here fails.
import test from 'ava';
import { decide, type DecideInput, type Decision } from '../../../src/injection/decide/decide.js';
import type { OptIn } from '../../../src/injection/decide/facts.js';
import { JUDGED_WITHOUT_FAILURE } from '../../../src/injection/decide/judging-failed.js';
import { REASONS, type ReasonCode } from '../../../src/injection/decide/reasons.js';
import { RULES } from '../../../src/injection/decide/rules.js';
import { annotationOf } from '../../../src/injection/options.js';
import { injectPod } from '../../../src/injection/pipeline/inject-pod.js';
import type { PodTemplate } from '../../../src/injection/pod.js';
import type { EntitlementPolicy } from '../../../src/injection/policy/entitlement-policy.js';
import { DEFAULTS } from '../../helpers/injection.js';

/** The rule a pod of the wrong shape is refused under, before any rule of RULES. */
const SHAPE_RULE = 'hasThePodShape';

type Kind = 'inject' | 'keep' | 'skip' | 'skip with a warning' | 'refuse';

interface Row {
  readonly pod: string;
  readonly template: unknown;
  readonly optIn: OptIn;
  readonly entitlement?: DecideInput['entitlement'];
  readonly kind: Kind;
  /** The rule that decided; absent when every rule held. */
  readonly rule?: string;
  readonly reason?: ReasonCode;
}

const ASKS = { 'sfd-sidecar.io/inject': 'true' };

const podWith = (
  spec: Record<string, unknown> = {},
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } = {},
): PodTemplate => ({
  metadata: { labels: { app: 'web', ...metadata.labels }, annotations: { ...metadata.annotations } },
  spec: { containers: [{ name: 'web', image: 'example/web:1' }], ...spec },
});

const asking = (spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}): PodTemplate =>
  podWith(spec, { labels: ASKS, annotations });

/** A pod as `inject` makes it: it carries the sidecar, and asks by its label. */
function carrying(): PodTemplate {
  const injected = injectPod(asking(), DEFAULTS, 'every-workload');
  if (injected.outcome !== 'injected') throw new Error(`the pod is ${injected.outcome}`);
  return injected.template;
}

/** The carried pod with its sidecar changed as `change` says. */
function carryingChanged(change: (sidecar: Record<string, unknown>) => void): PodTemplate {
  const template = structuredClone(carrying());
  const sidecar = [...(template.spec.initContainers ?? []), ...template.spec.containers].find(
    (container) => container.name === 'sfd-sidecar',
  );
  change(sidecar as unknown as Record<string, unknown>);
  return template;
}

const policy = (entitlements: unknown): NonNullable<DecideInput['entitlement']> => ({
  policy: { entitlements } as EntitlementPolicy,
  object: 'Pod/web',
  namespace: 'shop',
});
const OTHER_NAMESPACE_ONLY = policy([
  { namespace: 'billing', serviceAccounts: null, profiles: ['default'], operations: null, enforce: true },
]);
/** A policy whose entries cannot be read: the rules fail on it as on any fault of their own. */
const UNREADABLE = policy(null);

const SHARED_KEYS = { envFrom: [{ secretRef: { name: DEFAULTS.keystoreSecret } }] };
const WINDOWS = { os: { name: 'windows' } };
const HOST_NETWORK = { hostNetwork: true };
const CLASSIC_JOB = { restartPolicy: 'Never' };
const SMALL_BUDGET = { resources: { limits: { memory: '64Mi' } } };
const CLASSIC = { [annotationOf('mode')!]: 'classic' };

const ROWS: readonly Row[] = [
  { pod: 'a plain pod that asks', template: asking(), optIn: 'pod-asks', kind: 'inject' },
  { pod: 'a plain pod in an asking namespace', template: podWith(), optIn: 'namespace-asks', kind: 'inject' },
  {
    pod: 'a pod whose containers are not a list',
    template: { metadata: {}, spec: { containers: 'web' } },
    optIn: 'pod-asks',
    kind: 'refuse',
    rule: SHAPE_RULE,
    reason: 'pod-shape',
  },
  {
    pod: 'a pod that asks, judged by a policy that cannot be read',
    template: asking(),
    optIn: 'pod-asks',
    entitlement: UNREADABLE,
    kind: 'refuse',
    rule: JUDGED_WITHOUT_FAILURE,
    reason: 'judging-failed',
  },
  {
    pod: 'a pod its namespace asks for, judged by a policy that cannot be read',
    template: podWith(),
    optIn: 'namespace-asks',
    entitlement: UNREADABLE,
    kind: 'skip with a warning',
    rule: JUDGED_WITHOUT_FAILURE,
    reason: 'judging-failed',
  },
  {
    pod: 'a pod without the label, where only pods ask',
    template: podWith(),
    optIn: 'pod-asks',
    kind: 'skip',
    rule: 'asksForTheSidecar',
    reason: 'not-asked',
  },
  {
    pod: 'a pod labelled "false" in an asking namespace',
    template: podWith({}, { labels: { 'sfd-sidecar.io/inject': 'false' } }),
    optIn: 'namespace-asks',
    kind: 'skip',
    rule: 'asksForTheSidecar',
    reason: 'opted-out',
  },
  {
    pod: 'a pod whose inject label is neither yes nor no',
    template: podWith({}, { labels: { 'sfd-sidecar.io/inject': 'yes' } }),
    optIn: 'namespace-asks',
    kind: 'refuse',
    rule: 'asksForTheSidecar',
    reason: 'annotation',
  },
  {
    pod: 'a pod that carries the sidecar injection makes',
    template: carrying(),
    optIn: 'pod-asks',
    kind: 'keep',
    reason: 'already-injected',
  },
  {
    pod: 'a pod that carries a sidecar with a command of its own',
    template: carryingChanged((sidecar) => void (sidecar.command = ['sh', '-c', 'cat /keys/*'])),
    optIn: 'pod-asks',
    kind: 'refuse',
    rule: 'carriesOnlyWhatInjectionMakes',
    reason: 'carried-sidecar',
  },
  {
    pod: 'a Windows pod that asks',
    template: asking(WINDOWS),
    optIn: 'pod-asks',
    kind: 'refuse',
    rule: 'runsOnLinux',
    reason: 'windows',
  },
  {
    pod: 'a Windows pod its namespace asks for',
    template: podWith(WINDOWS),
    optIn: 'namespace-asks',
    kind: 'skip with a warning',
    rule: 'runsOnLinux',
    reason: 'windows',
  },
  {
    pod: 'a host-network pod that asks',
    template: asking(HOST_NETWORK),
    optIn: 'pod-asks',
    kind: 'refuse',
    rule: 'keepsItsOwnNetwork',
    reason: 'host-network',
  },
  {
    pod: 'a host-network pod its namespace asks for',
    template: podWith(HOST_NETWORK),
    optIn: 'namespace-asks',
    kind: 'skip with a warning',
    rule: 'keepsItsOwnNetwork',
    reason: 'host-network',
  },
  {
    pod: 'a pod with an annotation the injection cannot read',
    template: asking({}, { [annotationOf('memoryRequest')!]: 'plenty' }),
    optIn: 'pod-asks',
    kind: 'refuse',
    rule: 'annotationsAreReadable',
    reason: 'annotation',
  },
  {
    pod: 'a pod whose namespace the policy does not entitle',
    template: asking(),
    optIn: 'pod-asks',
    entitlement: OTHER_NAMESPACE_ONLY,
    kind: 'refuse',
    rule: 'entitledToItsProfiles',
    reason: 'not-entitled',
  },
  {
    pod: 'a pod whose application reads the key store Secret',
    template: asking({ containers: [{ name: 'web', image: 'example/web:1', ...SHARED_KEYS }] }),
    optIn: 'pod-asks',
    kind: 'refuse',
    rule: 'keepsKeysFromTheApplication',
    reason: 'key-access',
  },
  {
    pod: 'a pod its namespace asks for whose application reads the key store Secret',
    template: podWith({ containers: [{ name: 'web', image: 'example/web:1', ...SHARED_KEYS }] }),
    optIn: 'namespace-asks',
    kind: 'skip with a warning',
    rule: 'keepsKeysFromTheApplication',
    reason: 'key-access',
  },
  {
    pod: 'a pod that runs to completion and asks for a classic sidecar',
    template: asking(CLASSIC_JOB, CLASSIC),
    optIn: 'pod-asks',
    kind: 'refuse',
    rule: 'completesWithItsSidecar',
    reason: 'job-in-classic-mode',
  },
  {
    pod: 'a pod that runs to completion with a classic sidecar, its namespace asking',
    template: podWith(CLASSIC_JOB, { annotations: CLASSIC }),
    optIn: 'namespace-asks',
    kind: 'skip with a warning',
    rule: 'completesWithItsSidecar',
    reason: 'job-in-classic-mode',
  },
  {
    pod: 'a pod whose memory limit is below what the sidecar needs',
    template: asking(SMALL_BUDGET),
    optIn: 'pod-asks',
    kind: 'refuse',
    rule: 'fitsPodResources',
    reason: 'pod-resources',
  },
  {
    pod: 'a pod whose memory limit is below what the sidecar needs, its namespace asking',
    template: podWith(SMALL_BUDGET),
    optIn: 'namespace-asks',
    kind: 'skip with a warning',
    rule: 'fitsPodResources',
    reason: 'pod-resources',
  },
  {
    pod: 'a pod whose listen-port annotation names a port its application uses',
    template: asking(
      { containers: [{ name: 'web', image: 'example/web:1', ports: [{ containerPort: 8181 }] }] },
      { [annotationOf('signingPort')!]: '8181' },
    ),
    optIn: 'pod-asks',
    kind: 'refuse',
    rule: 'findsFreePorts',
    reason: 'ports',
  },
];

/** The row's view of a decision: its kind, and the rule and reason code that decided it. */
function observed(decision: Decision): Pick<Row, 'kind' | 'rule' | 'reason'> {
  switch (decision.kind) {
    case 'inject':
      return { kind: 'inject' };
    // A kept pod is reported under already-injected (explain-pod.ts, inject-pod.ts).
    case 'keep':
      return { kind: 'keep', reason: 'already-injected' };
    case 'skip':
      return { kind: decision.warning ? 'skip with a warning' : 'skip', rule: decision.rule, reason: decision.reason };
    case 'refuse':
      return { kind: 'refuse', rule: decision.rule, reason: decision.reason };
  }
}

for (const row of ROWS) {
  test(`${row.pod}: ${row.kind}${row.reason ? ` (${row.reason})` : ''}`, (t) => {
    const decision = decide(row.template, { defaults: DEFAULTS, optIn: row.optIn, entitlement: row.entitlement });
    const expected = {
      kind: row.kind,
      ...(row.rule ? { rule: row.rule } : {}),
      ...(row.reason ? { reason: row.reason } : {}),
    };
    t.deepEqual(observed(decision), expected);
    if (decision.kind === 'skip' || decision.kind === 'refuse') t.true(decision.problems.length > 0);
  });
}

test('the table has a row for every reason code', (t) => {
  const covered = new Set(ROWS.map((row) => row.reason));
  t.deepEqual(
    Object.keys(REASONS).filter((code) => !covered.has(code as ReasonCode)),
    [],
  );
});

test('the table has a row for every rule, the shape check and a failed judging included', (t) => {
  const covered = new Set(ROWS.map((row) => row.rule));
  const rules = [SHAPE_RULE, JUDGED_WITHOUT_FAILURE, ...RULES.map((rule) => rule.name)];
  t.deepEqual(
    rules.filter((rule) => !covered.has(rule)),
    [],
  );
});

test('the table has a row for every kind of decision', (t) => {
  const kinds: readonly Kind[] = ['inject', 'keep', 'skip', 'skip with a warning', 'refuse'];
  const covered = new Set(ROWS.map((row) => row.kind));
  t.deepEqual(
    kinds.filter((kind) => !covered.has(kind)),
    [],
  );
});

test('every reason that only some pods are refused for is refused when the pod asks, and a warning otherwise', (t) => {
  const unsafe = Object.entries(REASONS).filter(([, reason]) => reason.action === 'unsafe');
  for (const [code] of unsafe) {
    const kinds = new Set(ROWS.filter((row) => row.reason === code).map((row) => row.kind));
    t.true(kinds.has('refuse') && kinds.has('skip with a warning'), code);
  }
});
