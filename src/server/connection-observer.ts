// What a listener's connection bound reports: the open connections as a gauge, each connection shed
// in a counter, and a warn line at most every ten seconds while connections are being shed, so that a
// flood shows in the log without a line per connection. The line names the caller whose connection it
// reports, and how many that caller holds: in a flood, the caller flooding.
import type { ListenerConnections, ShedReason } from './connection-limit.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';

const LOG_INTERVAL_MS = 10_000;

export interface ConnectionObserverOptions {
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly now: () => number;
  /** signing, admin or notifications. */
  readonly listener: string;
  /** The setting that bounds it, named in the log line. */
  readonly setting: string;
  readonly maxConnections: number;
}

export function observeConnections(options: ConnectionObserverOptions): ListenerConnections {
  const { metrics, logger, listener } = options;
  const counts: Record<ShedReason, number> = { idle: 0, unused: 0, refused: 0 };
  for (const reason of Object.keys(counts) as ShedReason[])
    metrics.counters.sfd_connections_shed_total.inc({ listener, reason }, 0);
  let lastLogAt = -Infinity;
  return {
    maxConnections: options.maxConnections,
    observeOpen: (read) => metrics.observeConnections(listener, read),
    onShed(reason, caller) {
      metrics.counters.sfd_connections_shed_total.inc({ listener, reason });
      counts[reason] += 1;
      const at = options.now();
      if (at - lastLogAt < LOG_INTERVAL_MS) return;
      lastLogAt = at;
      logger.warn(`connections closed to stay within ${options.setting}`, {
        listener,
        maxConnections: options.maxConnections,
        ...counts,
        caller: caller.address,
        callerConnections: caller.held,
      });
      counts.idle = counts.unused = counts.refused = 0;
    },
  };
}
