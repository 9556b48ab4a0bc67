// The admin listener's app: liveness, readiness and Prometheus metrics. It never signs anything.
import { Hono } from 'hono';
import { SIDECAR_ERRORS } from '../errors.js';

export interface Readiness {
  readonly ready: boolean;
  /** Why the sidecar is not ready, one sentence each; empty when ready. */
  readonly reasons: readonly string[];
  /** Key store state, shown whether ready or not (a failed reload keeps the last good keys). */
  readonly keystore?: Readonly<Record<string, unknown>>;
}

export interface AdminAppDeps {
  readonly readiness: () => Readiness;
  /** The Prometheus exposition and its content type. */
  readonly metrics: () => Promise<{ body: string; contentType: string }>;
}

export function createAdminApp(deps: AdminAppDeps): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/metrics', async (c) => {
    const { body, contentType } = await deps.metrics();
    return c.body(body, 200, { 'Content-Type': contentType });
  });
  app.get('/readyz', (c) => {
    const { ready, reasons, keystore } = deps.readiness();
    const details = keystore ? { keystore } : {};
    return ready ? c.json({ status: 'ready', ...details }) : c.json({ status: 'not ready', reasons, ...details }, 503);
  });
  app.notFound((c) => c.json({ code: SIDECAR_ERRORS.NotFound.code, message: 'The admin listener serves /healthz, /readyz and /metrics.' }, 404));
  return app;
}
