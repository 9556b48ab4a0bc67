// The webhook's hono app: POST /mutate answers for pods that ask for the sidecar by annotation
// (`sfd-sidecar.io/inject: "true"`), POST /mutate/namespace for the pods of namespaces labelled
// `sfd-sidecar.io/inject=enabled` (every one, unless annotated "false"): the webhook configuration
// sends each to its path with its own selectors, since a review does not say which matched. A body
// that is not an AdmissionReview gets 400 with the sidecar's error shape, never a crash.
import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { SIDECAR_ERRORS, SidecarError, type SidecarErrorSpec } from '../../errors.js';
import { WEBHOOK_PATHS } from '../contract.js';
import type { OptIn } from '../pipeline/inject-pod.js';
import type { InjectionOptions } from '../options.js';
import type { EntitlementPolicy } from '../policy/entitlement-policy.js';
import type { Logger } from '../../observability/logger.js';
import { readBody } from '../../http/read-body.js';
import { errorAnswer, errorResponse } from '../../http/error-answer.js';
import type { BodyBudget } from '../../http/body-budget.js';
import { admissionReview, readAdmissionReview } from './admission-review.js';
import { reviewMemory } from './review-memory.js';
import { reviewPod, type ReviewResult } from './review-pod.js';
import { boundedText, MAX_LOGGED_CHARACTERS } from './answer-text.js';

/** An AdmissionReview carries one object, under etcd's 1.5 MiB: a larger body is not one. */
const MAX_REVIEW_BYTES = 3 * 1024 * 1024;

export interface InjectorAppDeps {
  readonly defaults: InjectionOptions;
  readonly logger: Logger;
  /** Counts and times each review (with why a pod was refused or skipped as unsafe). */
  readonly observe: (result: ReviewResult | 'invalid', seconds: number, reason?: string) => void;
  readonly minBodyBytesPerSecond: number;
  /** What the reviews in flight hold at once, bodies and answers, across every connection. */
  readonly budget: BodyBudget;
  /** How long an answer may wait for its caller to read it before the connection closes. */
  readonly answerDeadlineMs: number;
  /** The entitlement policy in force now; undefined: none, every profile may be used. */
  readonly policy?: () => EntitlementPolicy | undefined;
}

export function createInjectorApp(deps: InjectorAppDeps): Hono<{ Bindings: HttpBindings }> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.post(WEBHOOK_PATHS.pods, (c) => review(c, deps, 'pod-asks'));
  app.post(WEBHOOK_PATHS.namespaces, (c) => review(c, deps, 'namespace-asks'));
  app.notFound(() => refuse(deps, SIDECAR_ERRORS.NotFound, 'no such path'));
  return app;
}

async function review(c: Context<{ Bindings: HttpBindings }>, deps: InjectorAppDeps, optIn: OptIn): Promise<Response> {
  const started = performance.now();
  let body: unknown;
  const memory = reviewMemory(deps.budget, c.env.outgoing, deps.answerDeadlineMs);
  try {
    const bytes = await readBody(c.env.incoming, c.env.outgoing, {
      maxBytes: MAX_REVIEW_BYTES,
      minBytesPerSecond: deps.minBodyBytesPerSecond,
      hold: memory.hold,
    });
    body = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    deps.observe('invalid', (performance.now() - started) / 1000);
    if (error instanceof SidecarError) return refuse(deps, error.spec, error.message);
    return refuse(deps, SIDECAR_ERRORS.AdmissionReviewInvalid, 'the body is not JSON');
  }
  const read = readAdmissionReview(body);
  if (!read.ok) {
    deps.observe('invalid', (performance.now() - started) / 1000);
    return refuse(deps, SIDECAR_ERRORS.AdmissionReviewInvalid, read.problem);
  }
  const { response, result, pod, reason, who, failure } = reviewPod(
    read.request,
    deps.defaults,
    optIn,
    deps.policy?.(),
  );
  deps.observe(result, (performance.now() - started) / 1000, reason);
  // One line per decision; a refusal's line says why, as the answer does. A failure while judging is a
  // fault of the injector to fix, logged as an error a log pipeline can alert on.
  if (result !== 'ignored')
    deps.logger[failure ? 'error' : result === 'refused' ? 'warn' : 'info']('admission review', {
      result,
      pod,
      namespace: who?.namespace ?? null,
      serviceAccount: who?.serviceAccount ?? null,
      profiles: who?.profiles?.join(',') ?? null,
      uid: boundedText(read.request.uid, MAX_LOGGED_CHARACTERS),
      ...(reason ? { reason } : {}),
      ...(failure ? { failure } : {}),
      ...(response.status ? { message: response.status.message } : {}),
      warnings: response.warnings?.length ?? 0,
    });
  const answer = JSON.stringify(admissionReview(response));
  if (!memory.answer(Buffer.byteLength(answer)))
    return refuse(deps, SIDECAR_ERRORS.BodyBufferFull, 'the answers in flight hold the whole budget');
  return c.body(answer, 200, { 'Content-Type': 'application/json' });
}

function refuse(deps: InjectorAppDeps, spec: SidecarErrorSpec, reason: string): Response {
  const answer = errorAnswer(spec);
  deps.logger.warn('admission request refused', { code: spec.code, reason, sidecarTraceId: answer.traceId });
  return errorResponse(answer);
}
