// The webhook and the chart's admission policy state the rules for a pod that carries the sidecar twice:
// the code that judges a carried sidecar, and the policy's CEL the API server evaluates. Each rule's
// table of cases (test/helpers/shared-rule-cases.ts) goes to both, the webhook's decision on the pod and
// the rendered policy judged by the model of the API server's CEL, and both must give its answer.
import test from 'ava';
import { refusals, renderedPolicy } from '../helpers/admission-policy.js';
import { app, injected, type Pod } from '../helpers/hostile-pods.js';
import { DEFAULTS } from '../helpers/injection.js';
import { SHARED_RULES } from '../helpers/shared-rule-cases.js';
import { decide } from '../../src/injection/decide/decide.js';

const POLICY = renderedPolicy();
/** One pod as `inject` makes it, which each case changes a copy of. */
const INJECTED = injected({ containers: [app({ securityContext: { runAsUser: 1000 } })] });

/** The webhook's answer: a pod carrying a sidecar is kept as it is, or refused with the rule's problems. */
function byTheWebhook(pod: Pod): { admitted: boolean; why: string } {
  const decision = decide(pod, { defaults: DEFAULTS, optIn: 'pod-asks' });
  if (decision.kind === 'keep') return { admitted: true, why: 'kept' };
  const problems = 'problems' in decision ? decision.problems.join('; ') : '';
  return { admitted: false, why: `${decision.kind}: ${problems}` };
}

/** The API server's answer under the chart's policy. */
function byThePolicy(pod: Pod): { admitted: boolean; why: string } {
  const found = refusals(POLICY, { object: pod, namespace: 'shop' });
  return { admitted: found.length === 0, why: found.join('; ') || 'admitted' };
}

test('the pod inject makes is kept by the webhook and admitted by the policy', async (t) => {
  const pod = await INJECTED;
  t.deepEqual(byTheWebhook(pod), { admitted: true, why: 'kept' });
  t.deepEqual(byThePolicy(pod), { admitted: true, why: 'admitted' });
});

for (const [rule, cases] of Object.entries(SHARED_RULES)) {
  test(`${rule}: each case has an answer of each kind`, (t) => {
    t.true(
      cases.some((c) => c.admitted),
      'a case admitted',
    );
    t.true(
      cases.some((c) => !c.admitted),
      'a case refused',
    );
  });

  for (const { name, change, admitted } of cases) {
    test(`${rule}: ${name} (${admitted ? 'admitted' : 'refused'}) by the webhook and the policy alike`, async (t) => {
      const pod = structuredClone(await INJECTED);
      change(pod);
      const webhook = byTheWebhook(structuredClone(pod));
      const policy = byThePolicy(structuredClone(pod));
      t.is(webhook.admitted, admitted, `the webhook: ${webhook.why}`);
      t.is(policy.admitted, admitted, `the policy: ${policy.why}`);
    });
  }
}
