// What a webhook answer repeats from a review is bounded, over real HTTPS: a pod's names, the problems
// naming them and a warning per unknown annotation come from its client, and the answer is held in the
// injector's memory budget beside the review until the API server reads it. Unbounded, the largest
// review the API server sends would get an answer three times its size, more than the budget holds, and
// so 503 Sidecar.BodyBufferFull, which `failurePolicy: Ignore` reads as "admit".
import test from 'ava';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';
import { admissionReviewOf } from '../helpers/admission-review.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { DEFAULTS } from '../helpers/injection.js';

const MiB = 1024 * 1024;

test('what an answer repeats from a review is bounded, so the largest review still gets an answer', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS, {
    limits: { ...DEFAULT_LIMITS, maxBufferedBodyBytes: 8 * MiB },
  });
  // 110,000 unknown sfd-sidecar.io/ annotations: a warning for each would make the answer three times
  // the review, more than the budget holds beside it; and names of 64 KiB, which every message repeats.
  const annotations = Object.fromEntries(
    Array.from({ length: 110_000 }, (_, i) => [`sfd-sidecar.io/${i.toString(36)}`, '']),
  );
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'n'.repeat(64 * 1024), labels: { 'sfd-sidecar.io/inject': 'true' }, annotations },
    spec: { containers: [{ name: 'c'.repeat(64 * 1024), image: 'a', securityContext: { privileged: true } }] },
  };
  const body = admissionReviewOf(pod);
  t.true(body.length > 2.5 * MiB && body.length < 3 * MiB, `${body.length} bytes`);
  const answer = await stack.post('/mutate', body);
  t.is(answer.status, 200, answer.body.slice(0, 200));
  const review = JSON.parse(answer.body) as {
    response: { allowed: boolean; warnings: string[]; status: { message: string } };
  };
  t.false(review.response.allowed);
  t.is(review.response.warnings.length, 20);
  t.is(review.response.warnings.at(-1), 'sfd-sidecar: 109981 more warnings');
  t.regex(
    review.response.status.message,
    /^sfd-sidecar cannot be added to Pod n{253}… in shop: container c+… \(\d+ more/,
  );
  t.true(answer.body.length < 64 * 1024, `${answer.body.length} bytes`);
});
