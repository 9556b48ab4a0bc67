// Builds and starts the notification relay's own listener (separate from the signing port, reachable
// from outside the pod), with the hono node-server direct-response pattern.
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../config/config-error.js';
import { DEFAULT_LIMITS } from '../config/limits-config.js';
import type { NotifyConfig } from './notify-config.js';
import { NOTIFY_SETTINGS } from './settings/notify-settings.js';
import { SIDECAR_ERRORS } from '../errors.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { observeConnections } from '../server/connection-observer.js';
import { createNotifyObserver } from '../observability/notify-observer.js';
import { errorAnswer } from '../http/error-answer.js';
import { callerLimitOptions, type CallerLimits } from '../server/caller-limits.js';
import { catalogRefusalAnswer } from '../server/catalog-refusal-answer.js';
import { createHttpServer } from '../server/create-http-server.js';
import { closeGracefully, formatAddress, listen } from '../server/listen.js';
import { createDeadLetterWriter, deadLetterDirProblem } from './dead-letter.js';
import { createDeliveredIds } from './delivered-ids.js';
import { createAppDelivery } from './deliver-to-app.js';
import { RELAY_METHODS } from './admit-notification.js';
import { createNotificationHandler } from './handle-notification.js';
import { createTokenCheck } from './path-token.js';
import { parseCidrList } from './settings/cidr-list.js';

export interface RunningNotifyRelay {
  readonly address: AddressInfo;
  close(drainMs: number): Promise<void>;
}

export interface NotifyRelayDeps {
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly now: () => number;
  /** The head size and caller timeouts of every listener (SFD_MAX_HEADER_BYTES, SFD_CLIENT_*). */
  readonly callerLimits?: CallerLimits;
}

export async function startNotifyRelay(config: NotifyConfig, deps: NotifyRelayDeps): Promise<RunningNotifyRelay> {
  const deadLetterProblem = config.deadLetterDir ? await deadLetterDirProblem(config.deadLetterDir) : null;
  if (deadLetterProblem)
    throw new ConfigError([
      `${NOTIFY_SETTINGS.notifyDeadLetterDir.env}: ${config.deadLetterDir} ${deadLetterProblem}; it must be a ` +
        `directory this process can write`,
    ]);
  const delivery = createAppDelivery(config.forwardUrl, config.timeoutMs);
  const handle = createNotificationHandler({
    path: config.path,
    tokenCheck: config.token ? createTokenCheck(config.token) : null,
    sourceFilter: config.allowedCidrs ? parseCidrList(config.allowedCidrs).filter : null,
    requireHeader: config.requireHeader,
    maxBodyBytes: config.maxBodyBytes,
    maxInflight: config.maxInflight,
    minBodyBytesPerSecond: (deps.callerLimits ?? DEFAULT_LIMITS).clientMinBodyBytesPerSecond,
    delivery,
    deliveredIds: createDeliveredIds(10_000),
    deadLetter: config.deadLetterDir ? createDeadLetterWriter(config.deadLetterDir, config.deadLetterMaxBytes) : null,
    logger: deps.logger,
    observer: createNotifyObserver(deps.metrics),
    now: deps.now,
  });
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.all('*', (c) => {
    handle(c.env.incoming, c.env.outgoing);
    return RESPONSE_ALREADY_SENT;
  });
  const server = createHttpServer(app, {
    onUnparsable: () => errorAnswer(SIDECAR_ERRORS.BadRequest),
    onParserRefusal: catalogRefusalAnswer({ logger: deps.logger, listener: 'notifications', allow: RELAY_METHODS }),
    serverOptions: callerLimitOptions(deps.callerLimits ?? DEFAULT_LIMITS),
    continueOnRead: true,
    connections: observeConnections({
      metrics: deps.metrics,
      logger: deps.logger,
      now: deps.now,
      listener: 'notifications',
      setting: NOTIFY_SETTINGS.notifyMaxConnections.env,
      maxConnections: config.maxConnections,
    }),
  });
  const address = await listen(server, config.listen, NOTIFY_SETTINGS.notifyListen.env);
  deps.logger.info('notification relay listening', {
    address: formatAddress(address),
    path: config.path,
    forwardTo: config.forwardUrl.origin,
  });
  return {
    address,
    async close(drainMs) {
      await closeGracefully(server, drainMs);
      delivery.close();
    },
  };
}
