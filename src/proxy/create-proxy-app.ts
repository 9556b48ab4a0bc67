// The hono app of the signing listener: one catch-all route that hands the raw Node request and
// response to the signing handler (hono node-server's "direct response" pattern), and the requests
// that go to the handler without hono, each checked as hono's adapter would check it.
import type { IncomingMessage, ServerResponse } from 'node:http';
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

/**
 * Hands to the signing handler, without hono, the requests hono cannot pass through as they are:
 * - HEAD: hono answers it by running the GET route and wrapping the result in a new Response, which
 *   defeats the RESPONSE_ALREADY_SENT marker (the adapter would send an empty 200 of its own);
 * - an absolute-form target: the adapter takes only a lower-case `http://` or `https://` for one, and
 *   scheme names are case-insensitive; the handler reads every target itself.
 * Every method is then treated alike: the Host of an origin-form HEAD is checked as the adapter checks
 * it for the others, and refused with the same answer.
 * @returns true when the request was handled here
 */
export function signingBypass(handle: ProxyHandler, refuse: (outgoing: ServerResponse) => void) {
  return (incoming: IncomingMessage, outgoing: ServerResponse): boolean => {
    const originForm = incoming.url?.startsWith('/') === true;
    if (originForm && incoming.method !== 'HEAD') return false;
    if (originForm && !adapterAcceptsHost(incoming.headers.host)) refuse(outgoing);
    else handle(incoming, outgoing);
    return true;
  };
}

/** The adapter's own check of an origin-form request's Host: it must be the host of the URL it builds. */
function adapterAcceptsHost(header: string | undefined): boolean {
  const host = header || 'localhost';
  try {
    const { hostname } = new URL(`http://${host}/`);
    return hostname.length === host.length || hostname === host.replace(/:\d+$/, '');
  } catch {
    return false;
  }
}
