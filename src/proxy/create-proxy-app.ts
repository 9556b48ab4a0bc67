// The hono app of the signing listener: one catch-all route that hands the raw Node request and
// response to the signing handler (hono node-server's "direct response" pattern).
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import type { ProxyHandler } from './handle-proxy-request.js';

/**
 * The methods named in the `Allow` of the signing listener's 405 to a CONNECT: it signs and forwards
 * any method Node's parser accepts but CONNECT; these are the ones the gateway's API uses.
 */
export const SIGNING_LISTENER_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

export function createProxyApp(handle: ProxyHandler): Hono<{ Bindings: HttpBindings }> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.all('*', (c) => {
    handle(c.env.incoming, c.env.outgoing);
    return RESPONSE_ALREADY_SENT;
  });
  return app;
}
