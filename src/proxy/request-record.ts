// One proxied request's log line (issue #4): what the signing handler records as the request goes,
// logged once when the caller's connection closes.
import { operationOf, type Operation } from '../observability/operation-name.js';

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
