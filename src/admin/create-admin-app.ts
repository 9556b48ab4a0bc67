// The admin listener's app: liveness, readiness and Prometheus metrics. It never signs anything.
import { Hono, type Context } from 'hono';
import { SIDECAR_ERRORS, type SidecarErrorSpec } from '../errors.js';
import type { Logger } from '../observability/logger.js';
import { errorAnswer, errorResponse } from '../http/error-answer.js';
import { ADMIN_PATHS } from '../config/admin-paths.js';

export interface Readiness {
  readonly ready: boolean;
  /** Why the sidecar is not ready, one sentence each; empty when ready. */
  readonly reasons: readonly string[];
  /** Key store state, shown whether ready or not (a failed reload keeps the last good keys). */
  readonly keystore?: Readonly<Record<string, unknown>>;
}

export interface AdminAppDeps {
  readonly readiness: () => Readiness;
  /** The exposition in the format the scraper's Accept header negotiates, and its content type. */
  readonly metrics: (accept: string | undefined) => Promise<{ body: string; contentType: string }>;
  readonly logger: Logger;
}

const PATHS = new Set<string>(Object.values(ADMIN_PATHS));
/** What every admin path answers (hono answers HEAD with the GET route). */
export const ADMIN_METHODS = 'GET, HEAD';

export function createAdminApp(deps: AdminAppDeps): Hono {
  const app = new Hono();
  app.get(ADMIN_PATHS.health, (c) => c.json({ status: 'ok' }));
  app.get(ADMIN_PATHS.metrics, async (c) => {
    const { body, contentType } = await deps.metrics(c.req.header('accept'));
    // The format depends on Accept: a cache between scraper and sidecar must not hand one to the other.
    return c.body(body, 200, { 'Content-Type': contentType, Vary: 'Accept' });
  });
  app.get(ADMIN_PATHS.ready, (c) => {
    const { ready, reasons, keystore } = deps.readiness();
    const details = keystore ? { keystore } : {};
    return ready ? c.json({ status: 'ready', ...details }) : c.json({ status: 'not ready', reasons, ...details }, 503);
  });
  // Another path, or another method on one of these (a probe or scraper set up wrongly): the catalog's
  // error with a trace id of its own, also in a warn line.
  app.notFound((c) => {
    const known = PATHS.has(c.req.path);
    return refuse(
      c,
      deps.logger,
      known ? SIDECAR_ERRORS.MethodNotAllowed : SIDECAR_ERRORS.NotFound,
      known ? { Allow: ADMIN_METHODS } : {},
    );
  });
  return app;
}

function refuse(c: Context, logger: Logger, spec: SidecarErrorSpec, extra: Record<string, string>): Response {
  const answer = errorAnswer(spec, { headers: extra });
  logger.warn('admin request refused', {
    method: c.req.method,
    path: c.req.path,
    errorCode: spec.code,
    sidecarTraceId: answer.traceId,
  });
  return errorResponse(answer);
}
