// The one module that imports http-proxy, and the one place that leans on what it does not document:
// its list of request passes and the order in which it copies headers. Both are checked when the
// adapter is built and by the library-internals test, so that an upgrade that changes them fails there
// and not on the wire.
import type { Agent, ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import httpProxy from 'http-proxy';
import type { UpstreamTarget } from '../config/parsers.js';
import type { HeaderLines } from './outgoing-headers.js';

/** Writes the request's body once http-proxy has opened the upstream request. */
export type BodyWriter = (upstreamRequest: ClientRequest) => void;

export interface SignedProxy {
  /**
   * Sends `method` and `headers` (exactly these lines, in this order) to the upstream; `write` sets the
   * path and ends the request. `onError` hears every failure before an answer.
   */
  web(
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    request: AdaptedRequest,
    onError: (error: Error) => void,
  ): void;
  close(): void;
}

export interface AdaptedRequest {
  readonly method: string;
  readonly headers: HeaderLines;
  readonly write: BodyWriter;
}

export function createSignedProxy(upstream: UpstreamTarget, agent: Agent): SignedProxy {
  const proxy = httpProxy.createProxyServer({
    target: {
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
    } as unknown as httpProxy.ServerOptions['target'],
    agent,
    selfHandleResponse: true,
    // The path is set on the upstream request by the body writer: http-proxy joins paths with a helper
    // that collapses `//`, and the path must go out byte for byte.
    ignorePath: true,
    prependPath: false,
    // With toProxy http-proxy takes req.url as it is instead of parsing it for every request; ignorePath
    // then discards it anyway.
    toProxy: true,
    xfwd: false,
    changeOrigin: false,
    secure: true,
  });
  // Its deleteLength pass gives every DELETE and OPTIONS without a `content-length` key one of '0'. The
  // sidecar frames each request as its caller did: no length for a bodiless DELETE unless one was sent.
  withoutWebPass(proxy, 'deleteLength');
  return {
    web(incoming, outgoing, request, onError) {
      // http-proxy copies `incoming.headers` and `incoming.method` into the upstream request.
      incoming.headers = headersForHttpProxy(request.headers);
      incoming.method = request.method;
      // Its `buffer` option is piped into the upstream request: the writer stands in for a stream.
      const buffer = { pipe: request.write } as unknown as httpProxy.ServerOptions['buffer'];
      proxy.web(incoming, outgoing, { buffer }, onError);
    },
    close: () => proxy.close(),
  };
}

/** Takes one of http-proxy's request passes out (its `before`/`after` find passes by function name too). */
function withoutWebPass(proxy: httpProxy, name: string): void {
  const server = proxy as httpProxy & { webPasses?: Array<{ name: string }> };
  const passes = server.webPasses;
  if (!Array.isArray(passes)) throw new Error('http-proxy no longer lists its web passes; the adapter needs updating');
  const kept = passes.filter((pass) => pass.name !== name);
  if (kept.length !== passes.length - 1)
    throw new Error(`http-proxy has no web pass named ${name}; the adapter needs updating`);
  server.webPasses = kept;
}

/**
 * The lines as the object http-proxy copies into the upstream request, built last line first:
 * http-proxy copies it with `util._extend`, which walks the keys from the last to the first, and Node
 * sends an object's headers in key order. Built in order, the upstream would get every header in
 * reverse (Authorization first, Host after the signature, the caller's headers backwards).
 */
function headersForHttpProxy(lines: HeaderLines): IncomingMessage['headers'] {
  const headers: Record<string, string | string[]> = {};
  for (let i = lines.length - 2; i >= 0; i -= 2) headers[lines[i] as string] = lines[i + 1]!;
  return headers;
}
