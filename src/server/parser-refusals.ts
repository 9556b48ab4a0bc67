// Requests refused before any handler sees them: those Node's HTTP parser refuses (not valid HTTP, a
// head over the size limit, a head or body slower than the server's timeouts), and CONNECT, which asks
// for a tunnel. Without a `clientError` listener Node answers the first with a bare status line, only on
// a connection that has never been written to, and without a `connect` listener it closes the
// connection on a CONNECT without a word; either way nothing is logged or counted. These listeners name
// each refusal, let their owner build the answer (and log and count it), and write that answer wherever
// it can still be the next thing the caller reads.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { responseOn } from '../http/node-internals.js';

/**
 * `connect`: a CONNECT request (the listeners forward and sign HTTP requests; none opens tunnels).
 * `version`: a request line naming an HTTP version other than 1.0 and 1.1.
 */
export type ParserRefusalKind = 'malformed' | 'headersTooLarge' | 'timeout' | 'connect' | 'version';

export interface ParserRefusal {
  readonly kind: ParserRefusalKind;
  /**
   * Node's code for it (HPE_INVALID_METHOD, HPE_HEADER_OVERFLOW, ERR_HTTP_REQUEST_TIMEOUT...; `CONNECT` for a
   * CONNECT): no request bytes.
   */
  readonly parserCode: string;
}

export interface RefusalAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The kind of refusal a `clientError` code is, or null for a connection failure (the caller is gone). */
export function refusalKindOf(code: string | undefined): ParserRefusalKind | null {
  if (code === 'HPE_HEADER_OVERFLOW') return 'headersTooLarge';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'timeout';
  // HPE_INVALID_EOF_STATE: the caller closed its side in the middle of a request; nobody is left to tell.
  if (code?.startsWith('HPE_') && code !== 'HPE_INVALID_EOF_STATE') return 'malformed';
  return null;
}

/**
 * Answers each refusal with `answer(refusal)` and closes the connection. A response to an earlier
 * pipelined request that is still under way is let finish first, so that each answer stays in the
 * order of its request.
 */
export function answerParserRefusals(server: Server, answer: (refusal: ParserRefusal) => RefusalAnswer): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const kind = refusalKindOf(error.code);
    if (kind === null || !socket.writable) return void socket.destroy();
    answerOn(socket, answer({ kind, parserCode: error.code! }));
  });
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    if (!socket.writable) return void socket.destroy();
    answerOn(socket, answer({ kind: 'connect', parserCode: 'CONNECT' }));
  });
}

/**
 * What Node's parser lets through but a server must refuse, answered like the parser's own refusals:
 * - a request line without a version (HTTP/0.9 style, `GET /x`), or a version other than 1.x, which
 *   Node reads as any digit;
 * - an HTTP/1.1 request without Host, or any request with more than one (RFC 9112 §3.2). Node refuses
 *   the first itself with a bare 400 no listener hears of, unless the server is made with
 *   `requireHostHeader: false`, and lets the second through.
 */
export function requestHeadRefusal(incoming: IncomingMessage): ParserRefusal | null {
  if (incoming.httpVersionMajor !== 1) {
    return incoming.httpVersionMajor === 0
      ? { kind: 'malformed', parserCode: 'HTTP_0_9' }
      : { kind: 'version', parserCode: 'HTTP_VERSION_NOT_SUPPORTED' };
  }
  if (incoming.headers.host === undefined)
    return incoming.httpVersionMinor >= 1 ? { kind: 'malformed', parserCode: 'MISSING_HOST_HEADER' } : null;
  let hosts = 0;
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
    if (incoming.rawHeaders[i]!.length === 4 && incoming.rawHeaders[i]!.toLowerCase() === 'host') hosts += 1;
  }
  return hosts > 1 ? { kind: 'malformed', parserCode: 'DUPLICATE_HOST_HEADER' } : null;
}

/** Answers a request Node handed over that must be refused like the parser's refusals, and closes the connection. */
export function refuseRequest(outgoing: ServerResponse, refusal: RefusalAnswer): void {
  outgoing.writeHead(refusal.status, closingHeaders(refusal)).end(refusal.body);
}

/** Writes a refusal as the next answer on the connection and closes it. */
function answerOn(socket: Socket, refusal: RefusalAnswer): void {
  const pending = responseOn(socket);
  if (!pending || pending.writableEnded) return writeRaw(socket, refusal);
  if (!pending.headersSent && !pending.req.complete) {
    // The refused request itself (its body was too slow): answer through its response object, so that
    // the request's own log line records the status.
    return refuseRequest(pending, refusal);
  }
  // The earlier response keeps the connection open, so that the refusal can follow it.
  pending.on('finish', () => writeRaw(socket, refusal));
  pending.on('close', () => {
    if (!pending.writableFinished) socket.destroy();
  });
}

/** The answer's headers, with its length and the connection's close. */
function closingHeaders({ headers, body }: RefusalAnswer): Record<string, string> {
  return { ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
}

/** Writes an answer straight to a connection no request object stands for, and closes it. */
export function writeRaw(socket: Socket, refusal: RefusalAnswer): void {
  if (!socket.writable) return void socket.destroy();
  const head = Object.entries(closingHeaders(refusal))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n${head}\r\n${refusal.body}`);
  // The caller may go on sending (a head still streaming in): do not wait for it to stop.
  socket.setTimeout(1000, () => socket.destroy());
}
