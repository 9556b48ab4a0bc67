// One forwarder (and so one keep-alive agent) per upstream origin, created on first use: profiles of
// a key store may name their own upstreams, and each is reached directly or through the egress proxy.
import type { EgressProxy } from '../config/egress-proxy.js';
import { proxyFor } from '../outbound/egress-route.js';
import type { UpstreamTarget } from '../config/parsers.js';
import type { UpstreamConnectionCounts } from '../observability/metrics.js';
import { createForwarder, type Forwarder, type ForwarderOptions } from './forwarder.js';
import type { TunnelAgentFactory } from '../outbound/tunnel-agent.js';

export interface ForwarderPool {
  get(upstream: UpstreamTarget): Forwarder;
  close(): void;
  /** Summed over every upstream. */
  connections(): UpstreamConnectionCounts;
}

export interface ForwarderPoolOptions extends Omit<ForwarderOptions, 'upstream' | 'proxy'> {
  /** SFD_UPSTREAM_PROXY and its no-proxy list; null or omitted when every upstream is reached directly. */
  readonly egressProxy?: EgressProxy | null;
  /** Required with an egress proxy; injected so that https-proxy-agent loads only when one is configured. */
  readonly createTunnelAgent?: TunnelAgentFactory;
}

export function createForwarderPool({
  egressProxy = null,
  createTunnelAgent,
  ...options
}: ForwarderPoolOptions): ForwarderPool {
  if (egressProxy && !createTunnelAgent)
    throw new Error('createForwarderPool: an egress proxy needs createTunnelAgent');
  const forwarders = new Map<string, Forwarder>();
  return {
    get(upstream) {
      let forwarder = forwarders.get(upstream.origin);
      if (!forwarder) {
        const proxy = proxyFor(egressProxy, upstream);
        forwarder = createForwarder({
          ...options,
          upstream,
          proxy: proxy && createTunnelAgent ? { url: proxy, createAgent: createTunnelAgent } : null,
        });
        forwarders.set(upstream.origin, forwarder);
      }
      return forwarder;
    },
    close() {
      for (const forwarder of forwarders.values()) forwarder.close();
      forwarders.clear();
    },
    connections() {
      let active = 0;
      let idle = 0;
      let waiting = 0;
      for (const forwarder of forwarders.values()) {
        const counts = forwarder.connections();
        active += counts.active;
        idle += counts.idle;
        waiting += counts.waiting;
      }
      return { active, idle, waiting };
    },
  };
}
