// Real HTTP clients for tests: node:http with no connection reuse, and a raw socket for requests no
// well-behaved client would send (absolute-form, malformed).
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import net from 'node:net';

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
  readonly json: <T = Record<string, unknown>>() => T;
}

export interface SendOptions {
  readonly method?: string;
  readonly headers?: OutgoingHttpHeaders | readonly string[];
  readonly body?: string | Buffer;
  readonly agent?: http.Agent | false;
  /** The address the connection comes from: the source the server sees (any of 127.0.0.0/8 on loopback). */
  readonly localAddress?: string;
}

/** Adds Host (absent from raw header arrays) and Content-Length (a GET body is not framed otherwise). */
function completeHeaders(target: URL, options: SendOptions): OutgoingHttpHeaders | string[] {
  const length = options.body === undefined ? [] : ['Content-Length', String(Buffer.byteLength(options.body))];
  if (Array.isArray(options.headers)) {
    const raw = options.headers as readonly string[];
    const hasHost = raw.some((value, i) => i % 2 === 0 && value.toLowerCase() === 'host');
    return [...(hasHost ? [] : ['Host', target.host]), ...raw, ...length];
  }
  const headers = { ...(options.headers as OutgoingHttpHeaders | undefined) };
  if (length.length > 0) headers['Content-Length'] = length[1];
  return headers;
}

/** Longer than any wait a test provokes on purpose (the longest is a few seconds of a timeout setting). */
const SEND_TIMEOUT_MS = 120_000;

export function send(url: string, options: SendOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = http.request(
      {
        // URL keeps an IPv6 host in brackets, which a lookup does not take.
        hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: target.port,
        path: url.slice(url.indexOf('/', url.indexOf('//') + 2)),
        method: options.method ?? 'GET',
        headers: completeHeaders(target, options) as OutgoingHttpHeaders,
        agent: options.agent ?? false,
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            rawHeaders: response.rawHeaders,
            body,
            json: <T>() => JSON.parse(body.toString('utf8')) as T,
          });
        });
      },
    );
    request.on('error', reject);
    // A test waits for an answer, never forever: a server that stays silent fails the test that asked,
    // naming the address, where an unbounded wait would hang the whole run.
    request.setTimeout(SEND_TIMEOUT_MS, () =>
      request.destroy(new Error(`no answer from ${url} within ${SEND_TIMEOUT_MS / 1000} s`)),
    );
    request.end(options.body);
  });
}

/** Writes raw bytes to host:port and returns everything read until the server closes or `idleMs`. */
export function rawExchange(port: number, payload: string | Buffer, idleMs = 1500): Promise<string> {
  return rawExchangeEnding(port, payload, idleMs).then(({ raw }) => raw);
}

/**
 * A raw exchange that also says who ended it: the server closing the connection, or the client after `idleMs` without
 * a byte.
 */
export function rawExchangeEnding(
  port: number,
  payload: string | Buffer,
  idleMs: number,
  complete?: (raw: string) => boolean,
): Promise<{ raw: string; endedBy: 'server' | 'client' }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = (endedBy: 'server' | 'client'): void => {
      socket.destroy();
      resolve({ raw: Buffer.concat(chunks).toString('latin1'), endedBy });
    };
    socket.setTimeout(idleMs, () => finish('client'));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (complete?.(Buffer.concat(chunks).toString('latin1'))) finish('client');
    });
    socket.on('end', () => finish('server'));
    socket.on('close', () => finish('server'));
    socket.on('error', (error) => (chunks.length > 0 ? finish('server') : reject(error)));
    socket.write(payload);
  });
}

/**
 * Whether a raw exchange holds one whole response (its head, and its body as Content-Length or the last
 * chunk frames it): a server that keeps the connection open has answered, however long it took.
 */
export function oneWholeResponse(raw: string): boolean {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const head = raw.slice(0, headEnd);
  const body = raw.slice(headEnd + 4);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) return body.length >= Number(length[1]);
  return /\r\ntransfer-encoding:\s*chunked/i.test(head) ? body.includes('0\r\n\r\n') : false;
}

/** The status code of the first response in a raw exchange. */
export function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
}

export interface ContinueAnswer {
  /** The server asked for the body (100 Continue) before its final answer. */
  readonly continued: boolean;
  /** The body was sent (only after a 100 Continue: this client never gives up waiting for it). */
  readonly bodySent: boolean;
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/**
 * Sends a request with `Expect: 100-continue` as a careful client does (RFC 9110 §10.1.1): the head
 * alone, then the body only once the server has answered 100 Continue; a final answer before that
 * means the body is never sent.
 */
export function sendExpectingContinue(
  url: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body: string | Buffer },
): Promise<ContinueAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    let continued = false;
    const request = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: url.slice(url.indexOf('/', url.indexOf('//') + 2)),
        method: options.method ?? 'POST',
        headers: {
          ...options.headers,
          Expect: '100-continue',
          'Content-Length': String(Buffer.byteLength(options.body)),
        },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          if (!continued) request.destroy();
          resolve({
            continued,
            bodySent: continued,
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          });
        });
      },
    );
    request.on('continue', () => {
      continued = true;
      request.end(options.body);
    });
    request.on('error', reject);
    request.flushHeaders();
  });
}

/** Whether a bare connection to the port is refused: the listener is closed (no request is sent). */
export function connectionRefused(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
