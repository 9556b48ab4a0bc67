// The answer every listener gives for one of the sidecar's own errors: the gateway's error shape
// `{code, message}` (with more fields where the error has them, such as a notification's problems),
// its JSON content type, and an `x-sfd-trace-id` of the sidecar's own, which its log line carries too.
// Never any internal error text. Written to a response, a raw socket, or returned as a web Response.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { SidecarErrorSpec } from '../errors.js';

/** The gateway's content type. */
export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';

/** A 32-hex trace id, the gateway's format. */
export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

export interface ErrorAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly traceId: string;
}

export interface ErrorAnswerOptions {
  /** More headers: Allow for a 405, Connection: close when the request's body was not read. */
  readonly headers?: Readonly<Record<string, string>>;
  /** More fields of the body (the problems of a notification). */
  readonly fields?: Readonly<Record<string, unknown>>;
  /** The trace id, when the caller already chose one for its log line. */
  readonly traceId?: string;
}

export function errorAnswer(spec: SidecarErrorSpec, options: ErrorAnswerOptions = {}): ErrorAnswer {
  const traceId = options.traceId ?? newTraceId();
  const body = JSON.stringify({ code: spec.code, message: spec.message, ...options.fields });
  return {
    status: spec.status,
    body,
    traceId,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, 'x-sfd-trace-id': traceId, ...options.headers },
  };
}

/** Writes the answer on a response; a response already begun cannot take it, and its connection is cut. */
export function sendErrorAnswer(response: ServerResponse, answer: ErrorAnswer): void {
  if (response.headersSent) return void response.destroy();
  response
    .writeHead(answer.status, { ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)) })
    .end(answer.body);
}

/** The answer as a web Response, for a hono route. */
export function errorResponse(answer: ErrorAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: { ...answer.headers } });
}
