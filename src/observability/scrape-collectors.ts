// How each scrape-time metric is filled from its source when a scraper asks, as tables of metric name
// to collector; a metric not listed is set where its event happens.
import type { Counter, Gauge } from './prom-client-parts.js';
import type { NameOf } from './metric-names.js';
import type { ScrapeSources } from './scrape-sources.js';
import { VERSION } from '../version.js';

export type CounterCollectors = Partial<Record<NameOf<'counter'>, (counter: Counter) => void>>;
export type GaugeCollectors = Partial<Record<NameOf<'gauge'>, (gauge: Gauge) => void>>;

export function counterCollectors(sources: ScrapeSources): CounterCollectors {
  return {
    sfd_log_lines_dropped_total: (c) => {
      c.reset();
      c.inc(sources.logDrops());
    },
  };
}

export function gaugeCollectors(sources: ScrapeSources): GaugeCollectors {
  return {
    sfd_keystore_last_success_timestamp_seconds: (g) => {
      const at = sources.keys?.lastSuccessMs() ?? null;
      if (at !== null) g.set(at / 1000);
    },
    sfd_key_not_after_timestamp_seconds: (g) => {
      g.reset();
      for (const key of sources.keys?.keys() ?? [])
        if (key.notAfterMs !== null)
          g.set({ profile: key.profile, access_key_id: key.accessKeyId }, key.notAfterMs / 1000);
    },
    sfd_key_current: (g) => {
      g.reset();
      for (const key of sources.keys?.keys() ?? [])
        g.set({ profile: key.profile, access_key_id: key.accessKeyId }, key.current ? 1 : 0);
    },
    sfd_ready: (g) => g.set(sources.keys?.ready() ? 1 : 0),
    sfd_inflight_requests: (g) => g.set(sources.inflight()),
    sfd_buffered_body_bytes: (g) => g.set(sources.bufferedBodyBytes()),
    sfd_upstream_connections: (g) => {
      const { active, idle } = sources.upstream();
      g.set({ state: 'active' }, active);
      g.set({ state: 'idle' }, idle);
    },
    sfd_upstream_waiting_requests: (g) => g.set(sources.upstream().waiting),
    sfd_connections_open: (g) => {
      for (const [listener, read] of sources.connections) g.set({ listener }, read());
    },
    sfd_build_info: (g) => g.set({ version: VERSION }, 1),
    sfd_injector_certificate_expiry_timestamp_seconds: (g) => {
      const at = sources.certificateExpiry();
      if (at !== null) g.set(at / 1000);
    },
  };
}
