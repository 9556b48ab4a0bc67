// Sends a signed request upstream through http-proxy with a keep-alive agent and hands the upstream
// response back to the caller. The only module that imports http-proxy.
//
// Why it sets the path itself: http-proxy joins paths with a helper that collapses `//`, and the
// sidecar must forward path and query byte for byte (issue #2). The body is already buffered and
// signed, so it is written with the headers in one `end()` instead of being piped.
import http, { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import httpProxy from 'http-proxy';
import type { UpstreamTarget } from '../config/parsers.js';
import { SidecarError } from '../errors.js';
import type { UpstreamConnectionCounts } from '../observability/metrics.js';
import type { HeaderLines } from './outgoing-headers.js';
import type { TunnelAgentFactory } from './tunnel-agent.js';
import { agentTrust } from './trusted-certificates.js';
import { onUnaskedUpgrade } from './unasked-upgrade.js';
import { trackUpstreamReach } from './upstream-reach.js';
import { upstreamAgentOptions } from './upstream-agent-options.js';

export interface ForwarderOptions {
  readonly upstream: UpstreamTarget;
  /** Time allowed from sending to the response headers, and for each idle gap in the response body. */
  readonly timeoutMs: number;
  /** Extra PEM trusted for an HTTPS upstream, on top of the system roots. */
  readonly ca: string | null;
  /** Sockets kept per upstream; requests beyond wait in the agent's queue. */
  readonly maxSockets?: number;
  /** Idle keep-alive sockets are closed after this, below common upstream keep-alive timeouts. */
  readonly idleSocketTimeoutMs?: number;
  /** The egress proxy an HTTPS upstream is reached through (a CONNECT tunnel); null or omitted: directly. */
  readonly proxy?: { readonly url: URL; readonly createAgent: TunnelAgentFactory } | null;
}

export interface OutgoingRequest {
  readonly method: string;
  /** Path and query exactly as they go on the request line. */
  readonly path: string;
  /** The header lines in the order they go out. */
  readonly headers: HeaderLines;
  readonly body: Buffer;
}

export interface ForwardHandlers {
  /** The upstream answered: status and headers are in `response`; the caller writes them. */
  onResponse(response: IncomingMessage): void;
  /**
   * The request failed before any response: a catalog error for the caller.
   * @param reachedUpstream a byte of the request may have reached the upstream (never send it again)
   */
  onError(error: SidecarError, reachedUpstream: boolean): void;
}

export interface Forwarder {
  forward(incoming: IncomingMessage, outgoing: ServerResponse, request: OutgoingRequest, handlers: ForwardHandlers): void;
  /** Closes idle upstream sockets. */
  close(): void;
  /** Read at scrape time (metrics) and by tests; nothing is counted per request. */
  connections(): UpstreamConnectionCounts;
}

export function createForwarder(options: ForwarderOptions): Forwarder {
  const { upstream } = options;
  const agent = withDefinedRequestOptions(createAgent(options));
  const proxy = httpProxy.createProxyServer({
    target: { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port } as unknown as httpProxy.ServerOptions['target'],
    agent,
    selfHandleResponse: true,
    ignorePath: true,
    prependPath: false,
    // With toProxy http-proxy takes req.url as it is instead of running url.parse on it for every
    // request; ignorePath then discards it anyway (the path is set below).
    toProxy: true,
    xfwd: false,
    changeOrigin: false,
    secure: true,
  });
  // Its deleteLength pass gives every DELETE and OPTIONS without a `content-length` key one of '0',
  // under a name of its own (the first line on the wire). The handler frames each request as its caller
  // did (RFC 9110 §8.6: no length for a bodiless DELETE unless one was sent).
  withoutWebPass(proxy, 'deleteLength');

  function forward(incoming: IncomingMessage, outgoing: ServerResponse, request: OutgoingRequest, handlers: ForwardHandlers): void {
    let settled = false;
    let headersTimer: NodeJS.Timeout | undefined;
    let reachedUpstream = (): boolean => false;
    const fail = (error: SidecarError): void => {
      clearTimeout(headersTimer);
      if (settled) return;
      settled = true;
      handlers.onError(error, reachedUpstream());
    };
    // http-proxy copies `incoming.headers` into the upstream request: give it exactly what we send.
    incoming.headers = headersForHttpProxy(request.headers);
    incoming.method = request.method;
    const bodySource = {
      pipe(proxyReq: ClientRequest): void {
        proxyReq.path = request.path;
        reachedUpstream = trackUpstreamReach(proxyReq);
        headersTimer = setTimeout(() => {
          // Failed here, not through the request's error event, which a request already closed never emits.
          fail(new SidecarError('UpstreamTimeout'));
          proxyReq.destroy();
        }, options.timeoutMs);
        proxyReq.once('response', (response: IncomingMessage) => {
          clearTimeout(headersTimer);
          if (settled) return response.resume();
          settled = true;
          response.setTimeout(options.timeoutMs, () => response.destroy(new SidecarError('UpstreamTimeout')));
          handlers.onResponse(response);
        });
        onUnaskedUpgrade(proxyReq, (status) => fail(new SidecarError('UpstreamUnreachable', { cause: new Error(`the upstream switched protocols (${status}) unasked`) })));
        // The caller gone (now or before this point): nothing will read the answer.
        if (outgoing.closed) return void proxyReq.destroy();
        outgoing.on('close', () => {
          if (!outgoing.writableFinished) proxyReq.destroy();
        });
        proxyReq.end(request.body.length > 0 ? request.body : undefined);
      },
    };
    proxy.web(incoming, outgoing, { buffer: bodySource as unknown as httpProxy.ServerOptions['buffer'] }, (error: Error) => {
      if (error instanceof SidecarError) return fail(error);
      const closed = reachedUpstream() && CLOSED_WITHOUT_ANSWER.has((error as NodeJS.ErrnoException).code ?? '');
      fail(new SidecarError(closed ? 'UpstreamClosed' : 'UpstreamUnreachable', { cause: error }));
    });
  }

  return {
    forward,
    close: () => {
      agent.destroy();
      proxy.close();
    },
    connections: () => ({ active: countEntries(agent.sockets), idle: countEntries(agent.freeSockets), waiting: countEntries(agent.requests) }),
  };
}

/** The connection ended under a request that was sent: the gateway may have read it, it did not answer. */
const CLOSED_WITHOUT_ANSWER = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Takes one of http-proxy's request passes out (its `before`/`after` find passes by function name too). */
function withoutWebPass(proxy: httpProxy, name: string): void {
  const server = proxy as httpProxy & { webPasses: Array<{ name: string }> };
  const kept = server.webPasses.filter((pass) => pass.name !== name);
  if (kept.length !== server.webPasses.length - 1) throw new Error(`http-proxy has no web pass named ${name}`);
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

/** The upstream's keep-alive pool: plain, TLS, or TLS inside a tunnel through the egress proxy. */
function createAgent({ upstream, ca, proxy, maxSockets, idleSocketTimeoutMs }: ForwarderOptions): http.Agent {
  const agentOptions = upstreamAgentOptions(maxSockets, idleSocketTimeoutMs);
  if (upstream.protocol !== 'https:') return new http.Agent(agentOptions);
  const trust = agentTrust(ca);
  if (proxy) return proxy.createAgent(proxy.url, agentOptions, trust);
  return new https.Agent({ ...agentOptions, ...trust });
}

declare module 'node:http' {
  interface Agent {
    /** Node's hook between ClientRequest and its agent (not in @types/node; used by agent libraries). */
    addRequest(request: ClientRequest, requestOptions: Record<string, unknown>): void;
  }
}

/**
 * The request options http-proxy can set (its `setupOutgoing`, plus the host and port ClientRequest
 * fills in) that an agent reads to choose or open a connection. The others (method, path, headers,
 * agent) belong to the request, which ClientRequest has already taken from them.
 */
const CONNECTION_OPTIONS = ['host', 'hostname', 'port', 'localAddress', 'family', 'socketPath', 'servername', 'rejectUnauthorized', 'pfx', 'key', 'passphrase', 'cert', 'ca', 'ciphers', 'secureProtocol'];

/**
 * http-proxy hands Node's ClientRequest 17 request options, 10 of them undefined for a plain HTTP
 * upstream (TLS files, socketPath, localAddress...), and the agent copies them all, with its own, into
 * a dictionary-mode object for every request. The agent gets only the defined connection options:
 * nothing it decides changes (an undefined option and a missing one read the same; its own options,
 * TLS trust included, still apply over them). Looked up by name, not with for-in, which is slow over
 * a dictionary-mode object. About 42k of 438k instructions per request saved (callgrind, README Performance).
 */
function withDefinedRequestOptions<A extends http.Agent>(agent: A): A {
  const addRequest = agent.addRequest.bind(agent);
  agent.addRequest = (request, requestOptions) => {
    const defined: Record<string, unknown> = {};
    for (const name of CONNECTION_OPTIONS) {
      const value = requestOptions[name];
      if (value !== undefined) defined[name] = value;
    }
    addRequest(request, defined);
  };
  return agent;
}

/** Entries of one of the agent's per-origin lists (sockets, free sockets, waiting requests). */
function countEntries(pool: NodeJS.ReadOnlyDict<unknown[]>): number {
  let count = 0;
  for (const list of Object.values(pool)) count += list?.length ?? 0;
  return count;
}
