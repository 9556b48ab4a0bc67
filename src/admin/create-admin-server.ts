// The admin listener of any sfd-sidecar process (the sidecar, the injector): health, readiness and
// metrics, with the same limits, refusals and connection bound wherever it runs.
import type { Server } from 'node:http';
import type { Limits } from '../config/limits-config.js';
import { SIDECAR_ERRORS } from '../errors.js';
import { errorAnswer } from '../http/error-answer.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { callerLimitOptions } from '../server/caller-limits.js';
import { catalogRefusalAnswer } from '../server/catalog-refusal-answer.js';
import { observeConnections } from '../server/connection-observer.js';
import { createHttpServer } from '../server/create-http-server.js';
import { ADMIN_METHODS, createAdminApp, type Readiness } from './create-admin-app.js';
import { SETTINGS } from '../config/settings.js';

export interface AdminServerOptions {
  readonly readiness: () => Readiness;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly limits: Limits;
  /** Milliseconds on a monotonic clock, for the connection bound's log lines. */
  readonly now: () => number;
}

export function createAdminServer({ readiness, metrics, logger, limits, now }: AdminServerOptions): Server {
  return createHttpServer(
    createAdminApp({
      readiness,
      metrics: (accept) => metrics.exposition(accept),
      logger,
    }),
    {
      onUnparsable: () => errorAnswer(SIDECAR_ERRORS.BadRequest),
      onParserRefusal: catalogRefusalAnswer({ logger, listener: 'admin', allow: ADMIN_METHODS }),
      serverOptions: callerLimitOptions(limits),
      // It reads no body: a request that waits for 100 Continue gets its 404 or 405 without sending one.
      continueOnRead: true,
      connections: observeConnections({
        metrics,
        logger,
        now,
        listener: 'admin',
        setting: SETTINGS.adminMaxConnections.env,
        maxConnections: limits.adminMaxConnections,
      }),
    },
  );
}
