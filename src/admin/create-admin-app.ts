// The admin listener's app: liveness and readiness (and, later, metrics). It never signs anything.
import { Hono } from 'hono';

export interface Readiness {
  readonly ready: boolean;
  /** Why the sidecar is not ready, one sentence each; empty when ready. */
  readonly reasons: readonly string[];
  /** Key store state, shown whether ready or not (a failed reload keeps the last good keys). */
  readonly keystore?: Readonly<Record<string, unknown>>;
}

export interface AdminAppDeps {
  readonly readiness: () => Readiness;
}

export function createAdminApp(deps: AdminAppDeps): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', (c) => {
    const { ready, reasons, keystore } = deps.readiness();
    const details = keystore ? { keystore } : {};
    return ready ? c.json({ status: 'ready', ...details }) : c.json({ status: 'not ready', reasons, ...details }, 503);
  });
  app.notFound((c) => c.json({ code: 'Sidecar.NotFound', message: 'The admin listener serves /healthz and /readyz.' }, 404));
  return app;
}
