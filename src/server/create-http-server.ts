// Builds (does not start) a node:http server for a hono app. Requests the adapter cannot even turn into
// a URL (a broken Host, an absolute-form target it rejects) are answered with a catalog error rather
// than the adapter's plain-text 400.
import http from 'node:http';
import { getRequestListener } from '@hono/node-server';

export interface FetchApp {
  fetch: (request: Request, env: never) => Response | Promise<Response>;
}

export interface HttpServerOptions {
  /** The body of the answer to a request the adapter could not parse. */
  readonly onUnparsable: () => { status: number; body: string; headers: Record<string, string> };
  readonly serverOptions?: http.ServerOptions;
}

export function createHttpServer(app: FetchApp, options: HttpServerOptions): http.Server {
  const listener = getRequestListener(app.fetch as Parameters<typeof getRequestListener>[0], {
    autoCleanupIncoming: false,
    hostname: 'localhost',
    errorHandler: () => {
      const { status, body, headers } = options.onUnparsable();
      return new Response(body, { status, headers });
    },
  });
  return http.createServer(options.serverOptions ?? {}, (incoming, outgoing) => void listener(incoming, outgoing));
}
