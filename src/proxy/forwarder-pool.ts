// One forwarder (and so one keep-alive agent) per upstream origin, created on first use: profiles of
// a key store may name their own upstreams.
import type { UpstreamTarget } from '../config/parsers.js';
import type { UpstreamConnectionCounts } from '../observability/metrics.js';
import { createForwarder, type Forwarder, type ForwarderOptions } from './forwarder.js';

export interface ForwarderPool {
  get(upstream: UpstreamTarget): Forwarder;
  close(): void;
  /** Summed over every upstream. */
  connections(): UpstreamConnectionCounts;
}

export function createForwarderPool(options: Omit<ForwarderOptions, 'upstream'>): ForwarderPool {
  const forwarders = new Map<string, Forwarder>();
  return {
    get(upstream) {
      let forwarder = forwarders.get(upstream.origin);
      if (!forwarder) {
        forwarder = createForwarder({ ...options, upstream });
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
