// The webhook's hono app: POST /mutate answers for pods that ask for the sidecar by annotation
// (`sfd-sidecar.io/inject: "true"`), POST /mutate/namespace for the pods of namespaces labelled
// `sfd-sidecar.io/inject=enabled` (every one, unless annotated "false"): the webhook configuration
// sends each to its path with its own selectors, since a review does not say which matched. A body
// that is not an AdmissionReview gets 400 with the sidecar's error shape, never a crash.
import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { SIDECAR_ERRORS, SidecarError } from '../errors.js';
import type { OptIn } from '../inject/inject-pod.js';
import type { InjectionOptions } from '../inject/injection-options.js';
import type { Logger } from '../observability/logger.js';
import { readBody } from '../proxy/read-body.js';
import { JSON_CONTENT_TYPE, newTraceId } from '../proxy/send-error.js';
import { admissionReview, readAdmissionReview } from './admission-review.js';
import { reviewPod, type ReviewResult } from './review-pod.js';

/** An AdmissionReview carries one object, under etcd's 1.5 MiB: a larger body is not one. */
const MAX_REVIEW_BYTES = 3 * 1024 * 1024;

export interface InjectorAppDeps {
  readonly defaults: InjectionOptions;
  readonly logger: Logger;
  /** Counts and times each review. */
  readonly observe: (result: ReviewResult | 'invalid', seconds: number) => void;
  readonly minBodyBytesPerSecond: number;
}

export function createInjectorApp(deps: InjectorAppDeps): Hono<{ Bindings: HttpBindings }> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.post('/mutate', (c) => review(c, deps, 'when-enabled'));
  app.post('/mutate/namespace', (c) => review(c, deps, 'unless-disabled'));
  app.notFound((c) => refuse(c, deps, SIDECAR_ERRORS.NotFound, 'no such path'));
  return app;
}

async function review(c: Context<{ Bindings: HttpBindings }>, deps: InjectorAppDeps, optIn: OptIn): Promise<Response> {
  const started = performance.now();
  let body: unknown;
  try {
    const bytes = await readBody(c.env.incoming, c.env.outgoing, { maxBytes: MAX_REVIEW_BYTES, minBytesPerSecond: deps.minBodyBytesPerSecond });
    body = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (error) {
    deps.observe('invalid', (performance.now() - started) / 1000);
    if (error instanceof SidecarError) return refuse(c, deps, error.spec, error.message);
    return refuse(c, deps, SIDECAR_ERRORS.AdmissionReviewInvalid, 'the body is not JSON');
  }
  const read = readAdmissionReview(body);
  if (!read.ok) {
    deps.observe('invalid', (performance.now() - started) / 1000);
    return refuse(c, deps, SIDECAR_ERRORS.AdmissionReviewInvalid, read.problem);
  }
  const { response, result, pod } = reviewPod(read.request, deps.defaults, optIn);
  deps.observe(result, (performance.now() - started) / 1000);
  if (result !== 'ignored') deps.logger.info('admission review', { result, pod, uid: read.request.uid, warnings: response.warnings?.length ?? 0 });
  if (result === 'refused') deps.logger.warn('pod refused', { pod, reason: response.status?.message ?? '' });
  return c.json(admissionReview(response));
}

function refuse(c: Context, deps: InjectorAppDeps, spec: { code: string; status: number; message: string }, reason: string): Response {
  const sidecarTraceId = newTraceId();
  deps.logger.warn('admission request refused', { code: spec.code, reason, sidecarTraceId });
  return c.body(JSON.stringify({ code: spec.code, message: spec.message }), spec.status as 400, { 'Content-Type': JSON_CONTENT_TYPE, 'x-sfd-trace-id': sidecarTraceId });
}
