// One proxied request's log line: what the signing handler records as the request goes,
// logged once when the caller's connection closes, for every request or only failed ones (SFD_REQUEST_LOG).
import type { RequestLogMode } from '../config/settings.js';
import { operationOf, type Operation } from '../operations/named-operations.js';

/**
 * What one request's log line says (never a secret, a signature or a header value). Every field is
 * present from the start (undefined ones are left out of the line), so that all records share one
 * shape and the record itself is the log line: no per-request copy.
 */
export type RequestRecord = {
  method: string;
  path: string;
  operation: Operation;
  /** A profile of the key store (never a name the caller was refused). */
  profile: string | undefined;
  /** A profile the caller asked for and was refused. */
  refusedProfile: string | undefined;
  traceparent: string | undefined;
  accessKeyId: string | undefined;
  upstreamTraceId: string | undefined;
  sidecarTraceId: string | undefined;
  errorCode: string | undefined;
  resigned: boolean | undefined;
  status: number | undefined;
  completed: boolean | undefined;
  durationMs: number | undefined;
};

/**
 * A request worth its line when only failures are logged: no answer or an error status (the gateway's
 * 4xx and 5xx, 401 and 400 among them, or the sidecar's own), an answer cut off, or a first attempt
 * refused and signed again with another key.
 */
export function requestFailed(record: RequestRecord): boolean {
  return (
    record.status === undefined ||
    record.status === 0 ||
    record.status >= 400 ||
    record.errorCode !== undefined ||
    record.completed === false ||
    record.resigned === true
  );
}

/** The test deciding, once the request is over, whether its line is written. */
export function requestLogFilter(mode: RequestLogMode): (record: RequestRecord) => boolean {
  if (mode === 'failed') return requestFailed;
  const all = mode === 'all';
  return () => all;
}

export function newRecord(method: string, path: string, traceparent: string | undefined): RequestRecord {
  return {
    method,
    path,
    operation: operationOf(method, path),
    profile: undefined,
    refusedProfile: undefined,
    traceparent,
    accessKeyId: undefined,
    upstreamTraceId: undefined,
    sidecarTraceId: undefined,
    errorCode: undefined,
    resigned: undefined,
    status: undefined,
    completed: undefined,
    durationMs: undefined,
  };
}
