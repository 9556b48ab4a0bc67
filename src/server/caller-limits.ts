// The limits every listener puts on its callers (issue #7): the largest request head, and the time a
// caller has to send the head and the whole request. Slower or larger requests are refused by Node's
// parser (parser-refusals.ts). The notification relay faces callers outside the pod, so it gets them too.
import type { ServerOptions } from 'node:http';
import type { Limits } from '../config/limits-config.js';

export type CallerLimits = Pick<Limits, 'maxHeaderBytes' | 'clientHeadersTimeoutMs' | 'clientRequestTimeoutMs'>;

export function callerLimitOptions(limits: CallerLimits): ServerOptions {
  return { maxHeaderSize: limits.maxHeaderBytes, headersTimeout: limits.clientHeadersTimeoutMs, requestTimeout: limits.clientRequestTimeoutMs };
}
