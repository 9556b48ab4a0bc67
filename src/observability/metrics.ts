// The sidecar's Prometheus metrics, declared as data on a registry owned by the app
// instance (never prom-client's global one). prom-client's classes come from prom-client-parts.ts; the
// bound series and the exposition build on them.
import { Counter, Gauge, Histogram, PROCESS_COLLECTORS, Registry } from './prom-client-parts.js';
import { createEventLoopDelay, type EventLoopDelay } from './event-loop-delay.js';
import {
  createCounterFamily,
  createHistogramFamily,
  type CounterFamily,
  type HistogramFamily,
} from './bound-series.js';
import { VERSION } from '../version.js';
import { exposition, type Exposition } from './exposition.js';
import type { TRACE_ID_LABEL } from './trace-exemplar.js';
import { METRIC_DEFINITIONS, type MetricsComponent } from './metric-definitions.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type Definition = (typeof METRIC_DEFINITIONS)[number];
/** Updated on every request, so kept in bound series (bound-series.ts) rather than prom-client's classes. */
const PER_REQUEST = ['sfd_requests_total', 'sfd_request_duration_seconds', 'sfd_upstream_duration_seconds'] as const;
type PerRequestName = (typeof PER_REQUEST)[number];
type NameOf<T extends Definition['type']> = Exclude<Extract<Definition, { type: T }>['name'], PerRequestName>;

/** The per-request metrics; series take their label values in the order of METRIC_DEFINITIONS' labels. */
export interface PerRequestMetrics {
  readonly requests: CounterFamily;
  readonly requestDuration: HistogramFamily;
  readonly upstreamDuration: HistogramFamily;
}

/** The upstream connections now, and the requests waiting for one; read at scrape time. */
export interface UpstreamConnectionCounts {
  /** Carrying a request. */
  readonly active: number;
  /** Kept alive for the next request. */
  readonly idle: number;
  /** Requests waiting for a connection: all SFD_UPSTREAM_MAX_SOCKETS are active. */
  readonly waiting: number;
}

/** What the key metrics are read from at scrape time. */
export interface KeyMetricsSource {
  /**
   * Each key of each profile the sidecar signs with (never the rest of a shared key store): when it
   * stops, and whether it is the one in use now.
   */
  keys(): { profile: string; accessKeyId: string; notAfterMs: number | null; current: boolean }[];
  lastSuccessMs(): number | null;
  ready(): boolean;
}

export interface Metrics {
  readonly registry: Registry;
  /** The exposition in the format a scraper's Accept header asks for: OpenMetrics (with exemplars) or text. */
  exposition(accept: string | undefined): Promise<Exposition>;
  readonly counters: Record<NameOf<'counter'>, Counter>;
  readonly histograms: Record<NameOf<'histogram'>, Histogram>;
  readonly perRequest: PerRequestMetrics;
  readonly clockSkew: Gauge;
  /** The event loop delay monitor, which signed requests keep sampling (in other processes it always samples). */
  readonly eventLoop: EventLoopDelay;
  /** Connects the in-flight gauge to a count read at scrape time (cheaper than a gauge update per request). */
  observeInflight(read: () => number): void;
  /** Connects the buffered body bytes gauge to the body budget, read at scrape time. */
  observeBufferedBodyBytes(read: () => number): void;
  /** Connects the scrape-time gauges (keys, key store, readiness). */
  observeKeys(source: KeyMetricsSource): void;
  /** Connects the upstream connection gauges to counts read at scrape time. */
  observeUpstreamConnections(read: () => UpstreamConnectionCounts): void;
  /** Connects the dropped log lines counter to the log writer's count, read at scrape time. */
  observeLogDrops(read: () => number): void;
  /** Connects a listener's open connections gauge to its count, read at scrape time. */
  observeConnections(listener: string, read: () => number): void;
  /** Connects the injector's certificate expiry gauge (epoch ms, or null before one is loaded). */
  observeCertificateExpiry(read: () => number | null): void;
}

/** The metrics of one kind of process, on a registry of its own. */
export function createMetrics(component: MetricsComponent = 'sidecar'): Metrics {
  const registry = new Registry();
  for (const collect of PROCESS_COLLECTORS) collect(registry, { prefix: 'sfd_' });
  const eventLoop = createEventLoopDelay(registry, 'sfd_', component === 'sidecar' ? 'while-requests-come' : 'always');
  // prom-client names three gauges `*_total`, which Prometheus' own lint (promtool check metrics)
  // refuses for non-counters; they are left out so that every sfd_* family passes it.
  for (const name of [
    'sfd_nodejs_active_handles_total',
    'sfd_nodejs_active_requests_total',
    'sfd_nodejs_active_resources_total',
  ]) {
    registry.removeSingleMetric(name);
  }
  const counters = {} as Record<NameOf<'counter'>, Counter>;
  const histograms = {} as Record<NameOf<'histogram'>, Histogram>;
  const gauges = {} as Record<NameOf<'gauge'>, Gauge>;
  let source: KeyMetricsSource | null = null;
  let readInflight: () => number = () => 0;
  let readBufferedBodyBytes: () => number = () => 0;
  let readUpstream: () => UpstreamConnectionCounts = () => ({ active: 0, idle: 0, waiting: 0 });
  let readLogDrops: () => number = () => 0;
  const readConnections = new Map<string, () => number>();
  let readCertificateExpiry: () => number | null = () => null;
  const counterCollectors: Partial<Record<NameOf<'counter'>, (counter: Counter) => void>> = {
    sfd_log_lines_dropped_total: (c) => {
      c.reset();
      c.inc(readLogDrops());
    },
  };
  const collectors: Partial<Record<NameOf<'gauge'>, (gauge: Gauge) => void>> = {
    sfd_keystore_last_success_timestamp_seconds: (g) => {
      const at = source?.lastSuccessMs() ?? null;
      if (at !== null) g.set(at / 1000);
    },
    sfd_key_not_after_timestamp_seconds: (g) => {
      g.reset();
      for (const key of source?.keys() ?? [])
        if (key.notAfterMs !== null)
          g.set({ profile: key.profile, access_key_id: key.accessKeyId }, key.notAfterMs / 1000);
    },
    sfd_key_current: (g) => {
      g.reset();
      for (const key of source?.keys() ?? [])
        g.set({ profile: key.profile, access_key_id: key.accessKeyId }, key.current ? 1 : 0);
    },
    sfd_ready: (g) => g.set(source?.ready() ? 1 : 0),
    sfd_inflight_requests: (g) => g.set(readInflight()),
    sfd_buffered_body_bytes: (g) => g.set(readBufferedBodyBytes()),
    sfd_upstream_connections: (g) => {
      const { active, idle } = readUpstream();
      g.set({ state: 'active' }, active);
      g.set({ state: 'idle' }, idle);
    },
    sfd_upstream_waiting_requests: (g) => g.set(readUpstream().waiting),
    sfd_connections_open: (g) => {
      for (const [listener, read] of readConnections) g.set({ listener }, read());
    },
    sfd_build_info: (g) => g.set({ version: VERSION }, 1),
    sfd_injector_certificate_expiry_timestamp_seconds: (g) => {
      const at = readCertificateExpiry();
      if (at !== null) g.set(at / 1000);
    },
  };
  // Registered first, as they are listed first in METRIC_DEFINITIONS.
  const perRequest: PerRequestMetrics =
    component === 'sidecar'
      ? {
          requests: createCounterFamily(registry, familyDefinition('sfd_requests_total')),
          requestDuration: createHistogramFamily(registry, {
            ...familyDefinition('sfd_request_duration_seconds'),
            buckets: LATENCY_BUCKETS,
          }),
          upstreamDuration: createHistogramFamily(registry, {
            ...familyDefinition('sfd_upstream_duration_seconds'),
            buckets: LATENCY_BUCKETS,
          }),
        }
      : NO_PER_REQUEST;
  for (const definition of METRIC_DEFINITIONS) {
    if (isPerRequest(definition.name) || !definition.for.includes(component)) continue;
    const base = {
      name: definition.name,
      help: definition.help,
      labelNames: [...definition.labels],
      registers: [registry],
    };
    if (definition.type === 'counter') {
      const collect = counterCollectors[definition.name];
      counters[definition.name] = new Counter(
        collect
          ? {
              ...base,
              collect(this: Counter) {
                collect(this);
              },
            }
          : base,
      );
    } else if (definition.type === 'histogram')
      histograms[definition.name] = new Histogram({ ...base, buckets: LATENCY_BUCKETS });
    else {
      const collect = collectors[definition.name];
      gauges[definition.name] = new Gauge(
        collect
          ? {
              ...base,
              collect(this: Gauge) {
                collect(this);
              },
            }
          : base,
      );
    }
  }
  return {
    registry,
    exposition: (accept) => exposition(registry, accept),
    counters,
    histograms,
    perRequest,
    clockSkew: gauges.sfd_clock_skew_seconds,
    eventLoop,
    observeInflight: (read) => {
      readInflight = read;
    },
    observeBufferedBodyBytes: (read) => {
      readBufferedBodyBytes = read;
    },
    observeKeys: (keys) => {
      source = keys;
    },
    observeUpstreamConnections: (read) => {
      readUpstream = read;
    },
    observeLogDrops: (read) => {
      readLogDrops = read;
    },
    observeConnections: (listener, read) => {
      readConnections.set(listener, read);
    },
    observeCertificateExpiry: (read) => {
      readCertificateExpiry = read;
    },
  };
}

/** Where per-request series would be in a process that serves no signed requests. */
const NO_PER_REQUEST: PerRequestMetrics = {
  requests: { series: () => ({ inc: () => undefined }) },
  requestDuration: { series: () => ({ observe: () => undefined }) },
  upstreamDuration: { series: () => ({ observe: () => undefined }) },
};

function isPerRequest(name: string): name is PerRequestName {
  return (PER_REQUEST as readonly string[]).includes(name);
}

function familyDefinition(name: PerRequestName): {
  name: string;
  help: string;
  labelNames: readonly string[];
  exemplar?: typeof TRACE_ID_LABEL;
} {
  const definition = METRIC_DEFINITIONS.find((d) => d.name === name)!;
  const exemplar = 'exemplar' in definition ? { exemplar: definition.exemplar } : {};
  return { name, help: definition.help, labelNames: definition.labels, ...exemplar };
}

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** `2xx`...`5xx` for a status code (0 when no response was sent: `0xx`). */
export function statusClass(status: number): string {
  const index = Math.floor(status / 100);
  return STATUS_CLASSES[index] ?? `${index}xx`;
}
