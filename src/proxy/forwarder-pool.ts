// One forwarder (and so one keep-alive agent) per upstream origin, created on first use: profiles of
// a key store may name their own upstreams.
import type { UpstreamTarget } from '../config/parsers.js';
import { createForwarder, type Forwarder, type ForwarderOptions } from './forwarder.js';

export interface ForwarderPool {
  get(upstream: UpstreamTarget): Forwarder;
  close(): void;
  socketCount(): number;
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
    socketCount: () => [...forwarders.values()].reduce((sum, f) => sum + f.socketCount(), 0),
  };
}
