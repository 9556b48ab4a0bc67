// Pods whose lists are made long, or whose fields the rules read without a type check are made deep, by
// someone who can post a review. A list of a hundred thousand entries, each a problem, spread into one
// call's arguments overflows the stack as deep nesting does; a field read as text and written out with
// JSON.stringify overflows it when nested thousands of levels. Either would leave the pod to the
// judging-failed decision (refused here, since the pods ask and carry sidecars) rather than to the rule
// that should refuse it. Stopped: each is judged by its rule, and the answer names why.
import test from 'ava';
import { admissionReviewOf } from '../helpers/admission-review.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { DEFAULTS } from '../helpers/injection.js';
import { injectPod } from '../../src/injection/pipeline/inject-pod.js';
import type { Container, PodTemplate } from '../../src/injection/pod.js';

const ASKING = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', labels: { 'sfd-sidecar.io/inject': 'true' } },
  spec: { containers: [{ name: 'web', image: 'example/web:1', securityContext: { runAsUser: 1000 } }] },
};

/** A pod as `inject` makes it, and its sidecar to change. */
function injected(): { pod: PodTemplate; sidecar: Container } {
  const injection = injectPod(structuredClone(ASKING), DEFAULTS, 'every-workload');
  if (injection.outcome !== 'injected') throw new Error(injection.outcome);
  const pod = structuredClone(injection.template);
  return { pod, sidecar: pod.spec.initContainers!.find((c) => c.name === 'sfd-sidecar')! };
}

/** The review's text, a value given as JSON text in place of the mark. */
const reviewWith = (pod: object, text = ''): string => admissionReviewOf(pod).replace('"@@value@@"', () => text);

const CASES: [string, () => string, RegExp][] = [
  [
    'a carried sidecar with 140,000 variables in the form injection refuses',
    () => {
      const { pod, sidecar } = injected();
      sidecar.env = Array.from({ length: 140_000 }, () => ({ name: 'SFD_LISTEN' }));
      return reviewWith(pod);
    },
    /its sidecar differs: .*its SFD_LISTEN is not of the form injection writes/,
  ],
  [
    'a shared process namespace with 110,000 containers that set no user',
    () => {
      const pod = structuredClone(ASKING) as PodTemplate;
      pod.spec.shareProcessNamespace = true;
      pod.spec.ephemeralContainers = Array.from({ length: 110_000 }, () => ({ name: 'd' }));
      return reviewWith(pod);
    },
    /the pod shares its process namespace \(shareProcessNamespace\): container d must set/,
  ],
  [
    'a carried sidecar whose terminationMessagePolicy nests 6,000 levels',
    () => {
      const { pod, sidecar } = injected();
      sidecar.terminationMessagePolicy = '@@value@@';
      return reviewWith(pod, `${'['.repeat(6000)}${']'.repeat(6000)}`);
    },
    /its terminationMessagePolicy may copy its log into the pod's status \(\[\[\[/,
  ],
];

test('webhook: long lists and deep fields the rules read are judged by their rule', async (t) => {
  const stack = await startInjectorStack(t);
  for (const [title, review, why] of CASES) {
    const body = review();
    t.true(body.length < 3 * 1024 * 1024, `${title}: ${body.length} bytes`);
    const answer = await stack.post('/mutate', body);
    t.is(answer.status, 200, `${title}: ${answer.body.slice(0, 200)}`);
    const { response } = JSON.parse(answer.body) as { response: { allowed: boolean; status?: { message: string } } };
    t.false(response.allowed, title);
    t.regex(response.status?.message ?? '', why, title);
  }
  const failed = stack.logs.lines().filter((line) => line.reason === 'judging-failed' || line.level === 'error');
  t.deepEqual(failed, [], 'judging failed');
});
