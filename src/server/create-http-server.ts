// Builds (does not start) a node:http server for a hono app. Requests the adapter cannot even turn into
// a URL (a broken Host, an absolute-form target it rejects) are answered with a catalog error rather
// than the adapter's plain-text 400.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { trackAnswers } from './drain-answers.js';
import { deferContinue } from '../http/expect-continue.js';
import { SIDECAR_ERRORS } from '../errors.js';
import { errorAnswer } from '../http/error-answer.js';
import { limitConnections, type ListenerConnections } from './connection-limit.js';
import {
  answerParserRefusals,
  refuseRequest,
  requestHeadRefusal,
  writeRaw,
  type ParserRefusal,
  type RefusalAnswer,
} from './parser-refusals.js';

export interface FetchApp {
  fetch: (request: Request, env: never) => Response | Promise<Response>;
}

export interface HttpServerOptions {
  /** The body of the answer to a request the adapter could not parse. */
  readonly onUnparsable: () => { status: number; body: string; headers: Record<string, string> };
  readonly serverOptions?: http.ServerOptions;
  /**
   * The answer to a request Node's parser refused (malformed, head too large, too slow) or to a CONNECT;
   * Node's bare status line (for a CONNECT, a bare 405) when omitted.
   */
  readonly onParserRefusal?: (refusal: ParserRefusal) => RefusalAnswer;
  /** Requests to hand to this function instead of the app (return true when handled; create-proxy-app.ts). */
  readonly bypass?: (incoming: http.IncomingMessage, outgoing: http.ServerResponse) => boolean;
  /**
   * Answer `Expect: 100-continue` only when a handler reads the body (`readBody`), not on arrival.
   * Off for an app that reads bodies through hono's Request (the emulator): nothing would send the 100.
   */
  readonly continueOnRead?: boolean;
  /** Bounds the connections the server holds; unbounded when omitted (the emulator). */
  readonly connections?: ListenerConnections;
  /** Serve HTTPS with this certificate and key (replaced later with the server's setSecureContext). */
  readonly tls?: {
    readonly cert: string;
    readonly key: string;
    readonly ciphers?: string;
    readonly minVersion?: 'TLSv1.2';
  };
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
  // Slow request heads and bodies are checked every second (Node's default is every 30 s).
  const { onParserRefusal } = options;
  // With its own refusals, the server refuses an HTTP/1.1 request without Host itself (logged, counted,
  // a trace id), instead of Node's bare 400; and what Node lets through but must be refused.
  const serverOptions = {
    connectionsCheckingInterval: 1000,
    ...options.serverOptions,
    ...(onParserRefusal ? { requireHostHeader: false } : {}),
  };
  const handle = (incoming: http.IncomingMessage, outgoing: http.ServerResponse): void => {
    const refusal = onParserRefusal ? requestHeadRefusal(incoming) : null;
    if (refusal) return refuseRequest(outgoing, onParserRefusal!(refusal));
    if (options.bypass?.(incoming, outgoing)) return;
    void listener(incoming, outgoing);
  };
  const server: http.Server = options.tls
    ? https.createServer({ ...serverOptions, ...options.tls }, handle)
    : http.createServer(serverOptions, handle);
  trackAnswers(server);
  if (options.connections) {
    const refuse = (socket: Socket): void => writeRaw(socket, errorAnswer(SIDECAR_ERRORS.ConnectionsFull));
    limitConnections(server, { ...options.connections, refuse, now: () => performance.now() });
  }
  if (options.continueOnRead) deferContinue(server);
  if (onParserRefusal) answerParserRefusals(server, onParserRefusal);
  // Without an answer of its own (the emulator), a CONNECT gets a bare 405 rather than a silent close.
  else
    server.on('connect', (_request, socket: Duplex) =>
      socket.end('HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
    );
  return server;
}
