// When a request is sent again (SFD_UPSTREAM_RETRIES, SFD_RETRY_METHODS): only when it provably never
// reached the gateway (the connection could not be opened: refused, unreachable, a DNS failure, a reset
// during the TLS handshake; or a kept-alive connection was found closed before a byte of the request was
// written), and only for the methods the operator lists. Once a byte was written the gateway may have
// acted on it, and a copy signed with a fresh nonce would pass its replay protection: it is never sent
// again, whatever the method. The caller's handler signs each attempt afresh.

/** Failures that another attempt would meet again: a certificate refused, a name that does not exist. */
const PERMANENT = /^ENOTFOUND$|CERT|SIGNATURE|ISSUER|SELF_SIGNED|UNABLE_TO_|INVALID_CA|PATH_LENGTH|INVALID_PURPOSE/;
const BASE_DELAY_MS = 50;

export interface ConnectRetryOptions {
  /** SFD_UPSTREAM_RETRIES: retries after the first attempt. */
  readonly retries: number;
  /** SFD_RETRY_METHODS. */
  readonly methods: readonly string[];
  /** A number in [0, 1), for the jitter; Math.random when omitted. */
  readonly random?: () => number;
}

/** How an attempt failed. */
export interface AttemptFailure {
  /** The system's or TLS's code; undefined for a failure without one (a refused tunnel). */
  readonly code: string | undefined;
  /** A byte of the request may have reached the upstream. */
  readonly reachedUpstream: boolean;
}

/**
 * @returns the wait in ms before the next attempt, or null when the failure is final: the request may
 * have reached the upstream, the failure would repeat, the method is not listed, or the retries are used.
 * @param retriesSoFar how many retries this request has had already
 */
export type ConnectRetryPolicy = (failure: AttemptFailure, method: string, retriesSoFar: number) => number | null;

export function createConnectRetryPolicy({
  retries,
  methods,
  random = Math.random,
}: ConnectRetryOptions): ConnectRetryPolicy {
  const retried = new Set(methods);
  return ({ code, reachedUpstream }, method, retriesSoFar) => {
    if (reachedUpstream || code === undefined || PERMANENT.test(code)) return null;
    if (!retried.has(method) || retriesSoFar >= retries) return null;
    // Exponential backoff with jitter: 50-100 ms, then 100-150 ms, 200-250 ms...
    return BASE_DELAY_MS * 2 ** retriesSoFar + random() * BASE_DELAY_MS;
  };
}
