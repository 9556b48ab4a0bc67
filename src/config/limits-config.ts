// Resource limits and retry settings: bounded sockets, connections, in-flight requests and the bytes
// of their bodies, request heads and caller timeouts, and which methods are retried.
import type { SettingReader } from './setting-reader.js';
import { BUFFERED_BODY_DEFAULTS, SETTINGS } from './settings.js';

export interface Limits {
  readonly upstreamMaxSockets: number;
  readonly upstreamRetries: number;
  readonly retryMethods: readonly string[];
  readonly maxInflight: number;
  /** Connections the signing listener (or the injector's webhook) holds (connection-limit.ts). */
  readonly maxConnections: number;
  /** Connections the admin listener holds. */
  readonly adminMaxConnections: number;
  /** Request-body bytes the signing listener holds at once (body-budget.ts). */
  readonly maxBufferedBodyBytes: number;
  readonly maxHeaderBytes: number;
  readonly clientHeadersTimeoutMs: number;
  readonly clientRequestTimeoutMs: number;
  readonly clientKeepAliveTimeoutMs: number;
  /** After two seconds, a request body must arrive at this average rate (read-body.ts); 0: no minimum. */
  readonly clientMinBodyBytesPerSecond: number;
}

/** The budget's own default; SFD_MAX_BODY_BYTES raises it when larger. */
const BUFFERED_BODY_DEFAULT = BUFFERED_BODY_DEFAULTS.serve;

export const DEFAULT_LIMITS: Limits = Object.freeze({
  upstreamMaxSockets: SETTINGS.upstreamMaxSockets.default,
  upstreamRetries: SETTINGS.upstreamRetries.default,
  retryMethods: Object.freeze([...SETTINGS.retryMethods.default]),
  maxInflight: SETTINGS.maxInflight.default,
  maxConnections: SETTINGS.maxConnections.default,
  adminMaxConnections: SETTINGS.adminMaxConnections.default,
  maxBufferedBodyBytes: BUFFERED_BODY_DEFAULT,
  maxHeaderBytes: SETTINGS.maxHeaderBytes.default,
  clientHeadersTimeoutMs: SETTINGS.clientHeadersTimeoutMs.default,
  clientRequestTimeoutMs: SETTINGS.clientRequestTimeoutMs.default,
  clientKeepAliveTimeoutMs: SETTINGS.clientKeepAliveTimeoutMs.default,
  clientMinBodyBytesPerSecond: SETTINGS.clientMinBodyBytesPerSecond.default,
});

/** @param maxBodyBytes SFD_MAX_BODY_BYTES: the body budget's default is never below it. */
export function readLimits(r: SettingReader, maxBodyBytes: number): Limits {
  const limits: Limits = Object.freeze({
    upstreamMaxSockets: r.value(SETTINGS.upstreamMaxSockets),
    upstreamRetries: r.value(SETTINGS.upstreamRetries),
    retryMethods: Object.freeze(r.value(SETTINGS.retryMethods)),
    maxInflight: r.value(SETTINGS.maxInflight),
    maxConnections: r.value(SETTINGS.maxConnections),
    adminMaxConnections: r.value(SETTINGS.adminMaxConnections),
    maxBufferedBodyBytes: r.value(SETTINGS.maxBufferedBodyBytes) ?? Math.max(BUFFERED_BODY_DEFAULT, maxBodyBytes),
    maxHeaderBytes: r.value(SETTINGS.maxHeaderBytes),
    clientHeadersTimeoutMs: r.value(SETTINGS.clientHeadersTimeoutMs),
    clientRequestTimeoutMs: r.value(SETTINGS.clientRequestTimeoutMs),
    clientKeepAliveTimeoutMs: r.value(SETTINGS.clientKeepAliveTimeoutMs),
    clientMinBodyBytesPerSecond: r.value(SETTINGS.clientMinBodyBytesPerSecond),
  });
  if (limits.clientHeadersTimeoutMs > limits.clientRequestTimeoutMs) {
    r.problems.push(
      `${SETTINGS.clientHeadersTimeoutMs.env}: must not be longer than ${SETTINGS.clientRequestTimeoutMs.env}`,
    );
  }
  if (limits.maxBufferedBodyBytes < maxBodyBytes) {
    r.problems.push(
      `${SETTINGS.maxBufferedBodyBytes.env}: must be at least ${SETTINGS.maxBodyBytes.env} ` +
        `(${maxBodyBytes}), or the largest body accepted could never be held; leave it unset to follow ` +
        `${SETTINGS.maxBodyBytes.env}`,
    );
  }
  return limits;
}
