// The limits every listener puts on its callers: the largest request head, the time a caller
// has to send the head and the whole request, and how long an idle connection stays open. Slower or
// larger requests are refused by Node's parser (parser-refusals.ts). The notification relay faces
// callers outside the pod, so it gets them too.
// The idle timeout is long (65 s by default, Node's is 5 s) because the sidecar closing a connection
// at the moment a caller reuses it loses that caller's request (ECONNRESET, before the sidecar saw it);
// a caller that stops reusing first never meets that race, and Go (90 s), Java and Python clients keep
// idle connections longer than 5 s. Proxies and load balancers in front of the relay (60 s idle in
// ingress-nginx and AWS load balancers) likewise need it longer than their own.
import type { ServerOptions } from 'node:http';
import type { Limits } from '../config/limits-config.js';

export type CallerLimits = Pick<
  Limits,
  | 'maxHeaderBytes'
  | 'clientHeadersTimeoutMs'
  | 'clientRequestTimeoutMs'
  | 'clientKeepAliveTimeoutMs'
  | 'clientMinBodyBytesPerSecond'
>;

export function callerLimitOptions(limits: CallerLimits): ServerOptions {
  return {
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: limits.clientHeadersTimeoutMs,
    requestTimeout: limits.clientRequestTimeoutMs,
    keepAliveTimeout: limits.clientKeepAliveTimeoutMs,
  };
}
