// How the relay answers the service: a JSON acknowledgement, or a catalog error with a trace id of the
// sidecar's own, which the log line names too so that the two can be matched.
import type { ServerResponse } from 'node:http';
import type { SidecarErrorSpec } from '../errors.js';
import type { Logger } from '../observability/logger.js';
import type { NotifyObserver } from '../observability/notify-observer.js';
import { errorAnswer, JSON_CONTENT_TYPE, sendErrorAnswer } from '../http/error-answer.js';

export function answerJson(outgoing: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  outgoing.writeHead(status, { 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(text) });
  outgoing.end(text);
}

/** A catalog error with a trace id of the sidecar's own; returns it for the log line. */
export function answerError(
  outgoing: ServerResponse,
  spec: SidecarErrorSpec,
  headers: Record<string, string> = {},
): string {
  const answered = errorAnswer(spec, { headers });
  sendErrorAnswer(outgoing, answered);
  return answered.traceId;
}

/** A notification refused before it is read: counted, answered and logged. */
export function refuseNotification(
  outgoing: ServerResponse,
  spec: SidecarErrorSpec,
  reason: string,
  seen: { readonly logger: Logger; readonly observer: NotifyObserver },
  extra: Record<string, string> = {},
): void {
  seen.observer.notification('none', 'none', 'refused');
  const sidecarTraceId = answerError(outgoing, spec, extra);
  seen.logger.warn('notification refused', { code: spec.code, reason, sidecarTraceId });
}
