// Answers the caller with one of the sidecar's own errors: the upstream's error shape, a trace id of
// the sidecar's own so that the log line can be found, and never any internal error text.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { errorBody, type SidecarErrorSpec } from '../errors.js';

/** The gateway's content type (field-notes §3). */
export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';

/** A 32-hex trace id, the gateway's format (field-notes §3). */
export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

/**
 * @param closeConnection true when the request body was not read to its end, so the connection
 *   cannot be reused safely.
 */
export function sendSidecarError(res: ServerResponse, spec: SidecarErrorSpec, traceId: string, closeConnection: boolean): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = errorBody(spec);
  res.writeHead(spec.status, {
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'x-sfd-trace-id': traceId,
    ...(closeConnection ? { Connection: 'close' } : {}),
  });
  res.end(body);
}
