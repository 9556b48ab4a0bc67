// The hono environment of the emulator app and the reply helper that gives every answer the
// gateway's content type.
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { GATEWAY_CONTENT_TYPE, type GatewayError } from './gateway-errors.js';
import type { EmulatorKey } from './verifier.js';

export interface EmulatorEnv {
  Bindings: HttpBindings;
  Variables: { body: Buffer; key: EmulatorKey; accessKeyId: string };
}

// Middleware and route contexts differ only in hono's open input type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EmulatorContext = Context<EmulatorEnv, any, any>;

export function replyJson(c: EmulatorContext, value: unknown, status: ContentfulStatusCode = 200): Response {
  return c.body(JSON.stringify(value), status, { 'Content-Type': GATEWAY_CONTENT_TYPE });
}

export function replyEmpty(c: EmulatorContext): Response {
  return c.body('', 200, { 'Content-Type': GATEWAY_CONTENT_TYPE });
}

export function replyError(c: EmulatorContext, error: GatewayError): Response {
  return replyJson(c, { code: error.code, message: error.message }, error.status as ContentfulStatusCode);
}
