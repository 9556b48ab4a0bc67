// Builds and starts the injector: the webhook on HTTPS (its certificate re-read when it changes) and
// the admin listener (/healthz, /readyz, /metrics) as the sidecar has it.
import type { AddressInfo } from 'node:net';
import type { Server as HttpsServer } from 'node:https';
import { createAdminServer } from '../../admin/create-admin-server.js';
import type { Limits } from '../../config/limits-config.js';
import type { ListenAddress } from '../../config/parsers.js';
import type { InjectionOptions } from '../options.js';
import type { EntitlementPolicy } from '../policy/entitlement-policy.js';
import { observeConnections } from '../../server/connection-observer.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import { callerLimitOptions } from '../../server/caller-limits.js';
import { catalogRefusalAnswer } from '../../server/catalog-refusal-answer.js';
import { createHttpServer } from '../../server/create-http-server.js';
import { closeGracefully, formatAddress, listen } from '../../server/listen.js';
import { SIDECAR_ERRORS } from '../../errors.js';
import { errorAnswer } from '../../http/error-answer.js';
import { createBodyBudget } from '../../http/body-budget.js';
import { createInjectorApp } from './create-injector-app.js';
import { VERSION } from '../../version.js';
import type { TlsPair } from '../certificates/tls-pair.js';
import { SETTINGS } from '../../config/settings.js';
import { INJECTOR_SETTINGS } from '../injector-settings.js';

export interface InjectorOptions {
  readonly listen: ListenAddress;
  readonly adminListen: ListenAddress;
  readonly defaults: InjectionOptions;
  /** The certificate to serve first, and what hands over each new one (returns a stop function). */
  readonly tls: {
    readonly initial: TlsPair;
    readonly watch: (use: (pair: TlsPair) => void, current: TlsPair) => () => void;
  };
  readonly limits: Limits;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly now: () => number;
  /** How long an answer waits for its caller to read it (the API server waits 30 s at most). */
  readonly answerDeadlineMs?: number;
  /** The entitlement policy in force now; none: every profile may be used. */
  readonly policy?: () => EntitlementPolicy | undefined;
}

const ANSWER_DEADLINE_MS = 30_000;

/**
 * TLS 1.2 and 1.3 with forward-secret key exchange only: a recorded exchange stays unreadable even if
 * the webhook's key leaks later (every TLS 1.3 suite is forward-secret; these are TLS 1.2's).
 */
const FORWARD_SECRET = {
  minVersion: 'TLSv1.2' as const,
  ciphers: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
};

export interface RunningInjector {
  readonly address: AddressInfo;
  readonly adminAddress: AddressInfo;
  close(drainMs: number): Promise<void>;
}

export async function startInjector(options: InjectorOptions): Promise<RunningInjector> {
  const { logger, metrics, limits } = options;
  const reviews = metrics.counters.sfd_injector_reviews_total;
  const duration = metrics.histograms.sfd_injector_review_duration_seconds;
  const decisions = metrics.counters.sfd_injector_decisions_total;
  const budget = createBodyBudget(limits.maxBufferedBodyBytes);
  metrics.observeBufferedBodyBytes(() => budget.inUse());
  const app = createInjectorApp({
    defaults: options.defaults,
    logger,
    minBodyBytesPerSecond: limits.clientMinBodyBytesPerSecond,
    budget,
    answerDeadlineMs: options.answerDeadlineMs ?? ANSWER_DEADLINE_MS,
    ...(options.policy ? { policy: options.policy } : {}),
    observe: (result, seconds, reason) => {
      reviews.inc({ result });
      if (result === 'injected' || result === 'skipped' || result === 'refused')
        decisions.inc({ decision: result, reason: reason ?? 'none' });
      duration.observe(seconds);
    },
  });
  const unparsable = () => errorAnswer(SIDECAR_ERRORS.BadRequest);
  const observed = { metrics, logger, now: options.now };
  let certificate = options.tls.initial;
  metrics.observeCertificateExpiry(() => Date.parse(certificate.validTo));
  const server = createHttpServer(app, {
    onUnparsable: unparsable,
    onParserRefusal: catalogRefusalAnswer({ logger, listener: 'injector', allow: 'POST' }),
    serverOptions: callerLimitOptions(limits),
    continueOnRead: true,
    tls: { cert: certificate.cert, key: certificate.key, ...FORWARD_SECRET },
    connections: observeConnections({
      ...observed,
      listener: 'injector',
      setting: SETTINGS.maxConnections.env,
      maxConnections: limits.maxConnections,
    }),
  }) as HttpsServer;
  const readiness = () => ({
    ready: server.listening,
    reasons: server.listening ? [] : ['the webhook listener is not bound'],
    keystore: undefined,
  });
  const admin = createAdminServer({ readiness, metrics, logger, limits, now: options.now });
  const adminAddress = await listen(admin, options.adminListen, SETTINGS.adminListen.env);
  let address: AddressInfo;
  try {
    address = await listen(server, options.listen, INJECTOR_SETTINGS.injectorListen.env);
  } catch (error) {
    await closeGracefully(admin, 0);
    throw error;
  }
  const stopWatching = options.tls.watch((pair) => {
    certificate = pair;
    server.setSecureContext({ cert: pair.cert, key: pair.key, ...FORWARD_SECRET });
  }, certificate);
  logger.info('injector listening', {
    version: VERSION,
    webhook: formatAddress(address),
    admin: formatAddress(adminAddress),
    certificateValidTo: certificate.validTo,
    image: options.defaults.image,
  });
  return {
    address,
    adminAddress,
    async close(drainMs) {
      stopWatching();
      await closeGracefully(server, drainMs);
      await closeGracefully(admin, 0);
    },
  };
}
