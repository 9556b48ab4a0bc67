// The chart's admission policy as a Kubernetes v1.36 API server judges its CEL: accepted at creation,
// type-checked against the Pod schema without a warning, for every way the tests render it; and a big
// pod that injection made stays within the runtime cost limits.
import test from 'ava';
import { parse } from 'yaml';
import { renderedPolicy } from '../helpers/admission-policy.js';
import { runCli } from '../helpers/cli-process.js';
import { CORPUS_INJECT_ARGS } from '../helpers/corpus-settings.js';
import {
  compilePolicy,
  describeCompileError,
  evaluatePolicy,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  typeCheckPolicy,
} from '../helpers/kube-cel/admission-cel.js';

const DIGEST = `sha256:${'c'.repeat(64)}`;
const RENDERINGS: Record<string, string[]> = {
  default: [],
  'excluded namespaces': ['webhook.excludeNamespaces={legacy}'],
  'extra selector terms': [
    'webhook.namespaceSelectorExtra[0].key=env',
    'webhook.namespaceSelectorExtra[0].operator=NotIn',
    'webhook.namespaceSelectorExtra[0].values[0]=prod',
    'webhook.objectSelectorExtra[0].key=team',
    'webhook.objectSelectorExtra[0].operator=In',
    'webhook.objectSelectorExtra[0].values[0]=a',
    'webhook.objectSelectorExtra[1].key=legacy',
    'webhook.objectSelectorExtra[1].operator=DoesNotExist',
  ],
  'an entitlement policy as a table of grants': [
    'policy.entitlements[0].namespace=shop',
    'policy.entitlements[0].profiles={billing,payroll}',
    'policy.entitlements[1].namespace=shop',
    'policy.entitlements[1].serviceAccounts={checkout}',
    'policy.entitlements[1].profiles={orders}',
  ],
  'the per-profile layout with an entitlement policy': [
    'keystore.layout=per-profile',
    'policy.entitlements[0].namespace=shop',
    'policy.entitlements[0].profiles={billing}',
  ],
  'image registry and digest': [
    'global.imageRegistry=mirror.example.internal',
    `sidecar.image.digest=${DIGEST}`,
    'sidecar.image.registry=registry.local',
  ],
};

for (const [name, values] of Object.entries(RENDERINGS)) {
  test(`the API server accepts the policy (${name})`, (t) => {
    const errors = compilePolicy(renderedPolicy(...values));
    t.deepEqual(errors.map(describeCompileError), []);
  });

  test(`the policy type-checks against the Pod schema without a warning (${name})`, (t) => {
    const warnings = typeCheckPolicy(renderedPolicy(...values));
    t.deepEqual(
      warnings.map((w) => `${w.fieldRef}: ${w.warning}`),
      [],
    );
  });
}

test('a big pod injection made stays within the runtime cost limits', async (t) => {
  const containers = Array.from({ length: 40 }, (_, i) => ({
    name: `app-${i}`,
    image: `example/app:${i}`,
    env: Array.from({ length: 30 }, (__, j) => ({ name: `VAR_${j}`, value: 'x'.repeat(200) })),
    volumeMounts: [{ name: 'data', mountPath: `/data/${i}` }],
  }));
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'big', labels: { 'sfd-sidecar.io/inject': 'true' } },
    spec: { containers, volumes: [{ name: 'data', emptyDir: {} }] },
  };
  const result = await runCli(['inject', ...CORPUS_INJECT_ARGS, '-'], { input: JSON.stringify(pod) });
  t.is(result.code, 0, result.stderr);
  const evaluation = evaluatePolicy(renderedPolicy(), { object: parse(result.stdout) });
  t.deepEqual(
    evaluation.validations.filter((v) => v.result !== true).map((v) => v.result),
    [],
  );
  t.true(evaluation.withinBudget);
  t.true(evaluation.totalCost < RUNTIME_CEL_COST_BUDGET, `${evaluation.totalCost}`);
  for (const v of evaluation.validations) t.true(v.cost < PER_CALL_LIMIT, `${v.cost}`);
});
