// Sends a signed request upstream over a keep-alive agent and hands the upstream response back to the
// caller, with a deadline for the answer's head and for each gap in its body. The path is set on the
// upstream request as it is, so that path and query go out byte for byte; the body is already read
// and signed, so it is written with the headers in one `end()` instead of being piped.
import http, { type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { UpstreamTarget } from '../config/parsers.js';
import { SidecarError } from '../errors.js';
import type { UpstreamConnectionCounts } from '../observability/metrics.js';
import type { HeaderLines } from './outgoing-headers.js';
import type { TunnelAgentFactory } from '../outbound/tunnel-agent.js';
import { agentTrust } from '../outbound/trusted-certificates.js';
import { onUnaskedUpgrade } from '../outbound/unasked-upgrade.js';
import { trackUpstreamReach } from './upstream-reach.js';
import { upstreamAgentOptions } from './upstream-agent-options.js';
import { createSignedProxy } from './http-proxy-adapter.js';
import { withDefinedRequestOptions } from '../http/node-internals.js';

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
  forward(
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    request: OutgoingRequest,
    handlers: ForwardHandlers,
  ): void;
  /** Closes idle upstream sockets. */
  close(): void;
  /** Read at scrape time (metrics) and by tests; nothing is counted per request. */
  connections(): UpstreamConnectionCounts;
}

export function createForwarder(options: ForwarderOptions): Forwarder {
  const agent = withDefinedRequestOptions(createAgent(options));
  const proxy = createSignedProxy(options.upstream, agent);

  function forward(
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    request: OutgoingRequest,
    handlers: ForwardHandlers,
  ): void {
    let settled = false;
    let headersTimer: NodeJS.Timeout | undefined;
    let reachedUpstream = (): boolean => false;
    const fail = (error: SidecarError): void => {
      clearTimeout(headersTimer);
      if (settled) return;
      settled = true;
      handlers.onError(error, reachedUpstream());
    };
    const write = (proxyReq: ClientRequest): void => {
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
      onUnaskedUpgrade(proxyReq, (status) =>
        fail(
          new SidecarError('UpstreamUnreachable', {
            cause: new Error(`the upstream switched protocols (${status}) unasked`),
          }),
        ),
      );
      // The caller gone (now or before this point): nothing will read the answer.
      if (outgoing.closed) return void proxyReq.destroy();
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) proxyReq.destroy();
      });
      proxyReq.end(request.body.length > 0 ? request.body : undefined);
    };
    proxy.web(incoming, outgoing, { method: request.method, headers: request.headers, write }, (error: Error) => {
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
    connections: () => ({
      active: countEntries(agent.sockets),
      idle: countEntries(agent.freeSockets),
      waiting: countEntries(agent.requests),
    }),
  };
}

/** The connection ended under a request that was sent: the gateway may have read it, it did not answer. */
const CLOSED_WITHOUT_ANSWER = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** The upstream's keep-alive pool: plain, TLS, or TLS inside a tunnel through the egress proxy. */
function createAgent({ upstream, ca, proxy, maxSockets, idleSocketTimeoutMs }: ForwarderOptions): http.Agent {
  const agentOptions = upstreamAgentOptions(maxSockets, idleSocketTimeoutMs);
  if (upstream.protocol !== 'https:') return new http.Agent(agentOptions);
  const trust = agentTrust(ca);
  if (proxy) return proxy.createAgent(proxy.url, agentOptions, trust);
  return new https.Agent({ ...agentOptions, ...trust });
}

/** Entries of one of the agent's per-origin lists (sockets, free sockets, waiting requests). */
function countEntries(pool: NodeJS.ReadOnlyDict<unknown[]>): number {
  let count = 0;
  for (const list of Object.values(pool)) count += list?.length ?? 0;
  return count;
}
