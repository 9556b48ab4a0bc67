// Resource limits and retry settings (issue #7): bounded sockets, in-flight requests and the bytes of
// their bodies, request heads and caller timeouts (idle connections included), and which methods are
// retried after a connection failure.
import { fail, ok, parseInteger, type Parsed } from './parsers.js';
import type { SettingReader } from './setting-reader.js';

export interface Limits {
  readonly upstreamMaxSockets: number;
  readonly upstreamRetries: number;
  readonly retryMethods: readonly string[];
  readonly maxInflight: number;
  /** Connections the signing listener holds (connection-limit.ts). */
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

export const DEFAULT_LIMITS: Limits = Object.freeze({
  upstreamMaxSockets: 256,
  upstreamRetries: 2,
  retryMethods: Object.freeze(['GET', 'HEAD']),
  maxInflight: 1024,
  maxConnections: 2048,
  adminMaxConnections: 128,
  maxBufferedBodyBytes: 16 * 1024 * 1024,
  maxHeaderBytes: 16384,
  clientHeadersTimeoutMs: 10_000,
  clientRequestTimeoutMs: 60_000,
  clientKeepAliveTimeoutMs: 65_000,
  clientMinBodyBytesPerSecond: 1024,
});

const parseMethods = (raw: string): Parsed<string[]> => {
  const methods = raw.split(',').map((m) => m.trim().toUpperCase()).filter((m) => m !== '');
  return methods.every((m) => /^[A-Z]+$/.test(m)) ? ok(methods) : fail('a comma-separated list of HTTP methods, e.g. GET,HEAD');
};

/** @param maxBodyBytes SFD_MAX_BODY_BYTES: the body budget's default is never below it. */
export function readLimits(r: SettingReader, maxBodyBytes: number): Limits {
  return Object.freeze({
    upstreamMaxSockets: r.read('upstreamMaxSockets', parseInteger(1, 10_000), '256') ?? DEFAULT_LIMITS.upstreamMaxSockets,
    upstreamRetries: r.read('upstreamRetries', parseInteger(0, 10), '2') ?? DEFAULT_LIMITS.upstreamRetries,
    retryMethods: Object.freeze(r.read('retryMethods', parseMethods, 'GET,HEAD') ?? [...DEFAULT_LIMITS.retryMethods]),
    maxInflight: r.read('maxInflight', parseInteger(1, 1_000_000), '1024') ?? DEFAULT_LIMITS.maxInflight,
    maxConnections: r.read('maxConnections', parseInteger(1, 1_000_000), '2048') ?? DEFAULT_LIMITS.maxConnections,
    adminMaxConnections: r.read('adminMaxConnections', parseInteger(1, 1_000_000), '128') ?? DEFAULT_LIMITS.adminMaxConnections,
    maxBufferedBodyBytes: r.read('maxBufferedBodyBytes', parseInteger(1, 64 * 1024 ** 3)) ?? Math.max(DEFAULT_LIMITS.maxBufferedBodyBytes, maxBodyBytes),
    maxHeaderBytes: r.read('maxHeaderBytes', parseInteger(1024, 1024 * 1024), '16384') ?? DEFAULT_LIMITS.maxHeaderBytes,
    clientHeadersTimeoutMs: r.read('clientHeadersTimeoutMs', parseInteger(100, 600_000), '10000') ?? DEFAULT_LIMITS.clientHeadersTimeoutMs,
    clientRequestTimeoutMs: r.read('clientRequestTimeoutMs', parseInteger(100, 3_600_000), '60000') ?? DEFAULT_LIMITS.clientRequestTimeoutMs,
    clientKeepAliveTimeoutMs: r.read('clientKeepAliveTimeoutMs', parseInteger(1000, 3_600_000), '65000') ?? DEFAULT_LIMITS.clientKeepAliveTimeoutMs,
    clientMinBodyBytesPerSecond:
      r.read('clientMinBodyBytesPerSecond', parseInteger(0, 1024 * 1024 * 1024), '1024') ?? DEFAULT_LIMITS.clientMinBodyBytesPerSecond,
  });
}
