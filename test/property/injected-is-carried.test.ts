// A sidecar injection makes passes every rule a carried sidecar is judged by: whatever the pod's
// annotations ask for (within what injection accepts), the pod it prints, sent to the webhook again as
// the API server does after a later webhook or plugin changed it, is left as it is (`already-injected`),
// never refused. Were it refused, the rules for a carried sidecar would stand stricter than injection
// (every such pod refused); were a carried sidecar admitted that injection would never make, they would
// stand looser, which the attack tests pin case by case.
import test from 'ava';
import fc from 'fast-check';
import { injectPod } from '../../src/injection/pipeline/inject-pod.js';
import type { PodTemplate } from '../../src/injection/pod.js';
import { DEFAULTS } from '../helpers/injection.js';

const name = fc.stringMatching(/^[a-z]([a-z0-9-]{0,10}[a-z0-9])?$/);
const annotations = fc.record(
  {
    'sfd-sidecar.io/profile': name,
    'sfd-sidecar.io/mode': fc.constantFrom('native', 'classic'),
    'sfd-sidecar.io/sidecar-user': fc.constantFrom('platform', '1001', '65532'),
    'sfd-sidecar.io/upstream-url': fc.webUrl({ withQueryParameters: false, withFragments: false }),
    'sfd-sidecar.io/listen-port': fc.integer({ min: 1024, max: 65535 }).map(String),
    'sfd-sidecar.io/env-config-map': name,
    'sfd-sidecar.io/env-secret': name,
    'sfd-sidecar.io/keystore-secret': name,
    'sfd-sidecar.io/signature-version': fc.constantFrom('1', '2'),
    'sfd-sidecar.io/memory-limit': fc.constantFrom('192Mi', '256Mi', '1Gi'),
    'sfd-sidecar.io/cpu-limit': fc.constantFrom('100m', '1'),
    'sfd-sidecar.io/operations': fc
      .subarray(['getCustomer', 'getCustomerChildren', 'getRateLimit'], { minLength: 1 })
      .map((names) => names.join(',')),
  },
  { requiredKeys: [] },
);
/** The profiles a caller may pick come with the header it picks them by, or neither does. */
const picking = fc.option(
  fc.record({
    'sfd-sidecar.io/allowed-profiles': fc.uniqueArray(name, { minLength: 1, maxLength: 3 }).map((n) => n.join(',')),
    'sfd-sidecar.io/profile-header': fc.constantFrom('X-SFD-Profile', 'X-Pick'),
  }),
  { nil: {} },
);

const podWith = (extra: Record<string, string>, shareProcessNamespace: boolean): PodTemplate => ({
  metadata: { labels: { app: 'x' }, annotations: extra },
  spec: {
    ...(shareProcessNamespace ? { shareProcessNamespace } : {}),
    containers: [
      { name: 'app', image: 'example/app:1', securityContext: { runAsUser: 1000, allowPrivilegeEscalation: false } },
    ],
  },
});

test('every pod injection makes is judged, when it comes back, as a sidecar injection made', (t) => {
  let injected = 0;
  fc.assert(
    fc.property(annotations, picking, fc.boolean(), (extra, pick, shared) => {
      const first = injectPod(podWith({ ...extra, ...pick }, shared), DEFAULTS, 'every-workload');
      if (first.outcome !== 'injected') return true;
      injected += 1;
      const again = injectPod(first.template, DEFAULTS, 'pod-asks');
      if (again.outcome === 'skipped' && again.code === 'already-injected') return true;
      throw new Error(`${JSON.stringify(extra)}: ${JSON.stringify(again)}`);
    }),
    { numRuns: 400 },
  );
  t.true(injected > 200, `${injected} of 400 pods injected`);
});
