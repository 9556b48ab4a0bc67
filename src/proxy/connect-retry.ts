// When a request that never reached the upstream is sent again (SFD_UPSTREAM_RETRIES, SFD_RETRY_METHODS):
// only after a connection failure before any byte of a response, so the upstream's application never
// saw it, and only for the methods the operator lists (GET and HEAD by default: RFC 9110 §9.2.2 lets a
// client repeat idempotent requests by itself). The caller's handler signs each attempt afresh.

/** Connection failures before any response: the request did not reach the upstream's application. */
const RETRYABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ETIMEDOUT']);
const BASE_DELAY_MS = 50;

export interface ConnectRetryOptions {
  /** SFD_UPSTREAM_RETRIES: retries after the first attempt. */
  readonly retries: number;
  /** SFD_RETRY_METHODS. */
  readonly methods: readonly string[];
  /** A number in [0, 1), for the jitter; Math.random when omitted. */
  readonly random?: () => number;
}

/**
 * @returns the wait in ms before the next attempt, or null when the failure is final: an error code that
 * may mean the upstream saw the request, a method not listed, or the retries used up.
 * @param retriesSoFar how many retries this request has had already
 */
export type ConnectRetryPolicy = (errorCode: string | undefined, method: string, retriesSoFar: number) => number | null;

export function createConnectRetryPolicy({ retries, methods, random = Math.random }: ConnectRetryOptions): ConnectRetryPolicy {
  const retried = new Set(methods);
  return (errorCode, method, retriesSoFar) => {
    if (errorCode === undefined || !RETRYABLE.has(errorCode) || !retried.has(method) || retriesSoFar >= retries) return null;
    // Exponential backoff with jitter: 50-100 ms, then 100-150 ms, 200-250 ms...
    return BASE_DELAY_MS * 2 ** retriesSoFar + random() * BASE_DELAY_MS;
  };
}
