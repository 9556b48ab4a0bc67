// The sidecar's Prometheus metrics, declared as data on a registry owned by the app
// instance (never prom-client's global one). The only module that imports prom-client.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
  createCounterFamily,
  createHistogramFamily,
  type CounterFamily,
  type HistogramFamily,
} from './bound-series.js';
import { VERSION } from '../version.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Which process exposes a metric: the sidecar (`serve`), the injector, or both. */
export type MetricsComponent = 'sidecar' | 'injector';
const SIDECAR: readonly MetricsComponent[] = ['sidecar'];
const INJECTOR: readonly MetricsComponent[] = ['injector'];
const EVERY_PROCESS: readonly MetricsComponent[] = ['sidecar', 'injector'];

/** Every metric: name, type, labels, meaning. The metrics table of docs/operations.md is checked against this list. */
export const METRIC_DEFINITIONS = [
  {
    for: SIDECAR,
    name: 'sfd_requests_total',
    type: 'counter',
    labels: ['profile', 'operation', 'method', 'status'],
    help: 'Requests answered by the signing listener, by HTTP status.',
  },
  {
    for: SIDECAR,
    name: 'sfd_request_duration_seconds',
    type: 'histogram',
    labels: ['profile', 'operation', 'method', 'status_class'],
    help: 'Whole time through the sidecar, from request to the end of the response.',
  },
  {
    for: SIDECAR,
    name: 'sfd_upstream_duration_seconds',
    type: 'histogram',
    labels: ['profile', 'operation', 'status_class'],
    help: 'Time from sending a request upstream to its response headers.',
  },
  {
    for: SIDECAR,
    name: 'sfd_upstream_errors_total',
    type: 'counter',
    labels: ['profile', 'operation', 'status', 'error_code'],
    help: 'Upstream 4xx and 5xx answers, by the code of their JSON error body (other: not documented; none: no code).',
  },
  {
    for: SIDECAR,
    name: 'sfd_sidecar_errors_total',
    type: 'counter',
    labels: ['code'],
    help: "The sidecar's own error answers, by Sidecar.* code.",
  },
  { for: SIDECAR, name: 'sfd_inflight_requests', type: 'gauge', labels: [], help: 'Requests being handled now.' },
  {
    for: SIDECAR,
    name: 'sfd_buffered_body_bytes',
    type: 'gauge',
    labels: [],
    help: 'Request-body bytes the signing listener holds now (at most SFD_MAX_BUFFERED_BODY_BYTES).',
  },
  {
    for: SIDECAR,
    name: 'sfd_upstream_connections',
    type: 'gauge',
    labels: ['state'],
    help: 'Upstream connections open now: active (carrying a request) or idle (kept alive for the next).',
  },
  {
    for: SIDECAR,
    name: 'sfd_upstream_waiting_requests',
    type: 'gauge',
    labels: [],
    help: 'Requests waiting for an upstream connection because SFD_UPSTREAM_MAX_SOCKETS are active.',
  },
  {
    for: SIDECAR,
    name: 'sfd_clock_skew_seconds',
    type: 'gauge',
    labels: [],
    help: 'Upstream Date header minus the local clock, last seen.',
  },
  {
    for: SIDECAR,
    name: 'sfd_keystore_reloads_total',
    type: 'counter',
    labels: ['result'],
    help: 'Key store loads, by result (success, failure).',
  },
  {
    for: SIDECAR,
    name: 'sfd_keystore_last_success_timestamp_seconds',
    type: 'gauge',
    labels: [],
    help: 'When the key store last loaded successfully (Unix time).',
  },
  {
    for: SIDECAR,
    name: 'sfd_key_not_after_timestamp_seconds',
    type: 'gauge',
    labels: ['profile', 'access_key_id'],
    help: 'When each key stops being used (Unix time); keys without notAfter are not listed.',
  },
  {
    for: SIDECAR,
    name: 'sfd_key_current',
    type: 'gauge',
    labels: ['profile', 'access_key_id'],
    help: '1 for the key each profile signs with now, 0 for its other keys.',
  },
  {
    for: SIDECAR,
    name: 'sfd_resign_retries_total',
    type: 'counter',
    labels: ['profile'],
    help: 'Requests re-signed with another key after the gateway refused the first.',
  },
  {
    for: SIDECAR,
    name: 'sfd_ready',
    type: 'gauge',
    labels: [],
    help: '1 when the sidecar can sign for its default profile, else 0.',
  },
  {
    for: SIDECAR,
    name: 'sfd_notifications_total',
    type: 'counter',
    labels: ['type', 'status', 'result'],
    help:
      'Notifications received by the relay, by type, recording status and result (delivered, duplicate, invalid, ' +
      'refused, app_error).',
  },
  {
    for: SIDECAR,
    name: 'sfd_notification_delivery_duration_seconds',
    type: 'histogram',
    labels: [],
    help: 'Time the application took to accept a notification.',
  },
  {
    for: SIDECAR,
    name: 'sfd_notification_dead_letters_total',
    type: 'counter',
    labels: ['result'],
    help:
      'Invalid notifications appended to the dead-letter file (kept), or answered 503 because it could not take ' +
      'them (not_kept).',
  },
  {
    for: EVERY_PROCESS,
    name: 'sfd_log_lines_dropped_total',
    type: 'counter',
    labels: [],
    help: 'Log lines dropped because stdout (the log collector) did not take them and 16 MiB were waiting.',
  },
  {
    for: EVERY_PROCESS,
    name: 'sfd_connections_open',
    type: 'gauge',
    labels: ['listener'],
    help: 'Connections each listener holds now (signing, admin, notifications), at most its SFD_*MAX_CONNECTIONS.',
  },
  {
    for: EVERY_PROCESS,
    name: 'sfd_connections_shed_total',
    type: 'counter',
    labels: ['listener', 'reason'],
    help:
      'Connections closed to stay within the bound: idle (kept alive, longest idle first), unused (sent nothing ' +
      'for a second) or refused (none could go).',
  },
  {
    for: EVERY_PROCESS,
    name: 'sfd_build_info',
    type: 'gauge',
    labels: ['version'],
    help: 'Always 1; the version label is the running build of sfd-sidecar.',
  },
  {
    for: INJECTOR,
    name: 'sfd_injector_reviews_total',
    type: 'counter',
    labels: ['result'],
    help:
      'Admission reviews answered by the injector: injected, skipped (not asked for, or already injected), ' +
      'refused, ignored (not a Pod created) or invalid (not a review).',
  },
  {
    for: INJECTOR,
    name: 'sfd_injector_review_duration_seconds',
    type: 'histogram',
    labels: [],
    help: 'Time the injector took to answer an admission review, from its first byte to the answer.',
  },
  {
    for: INJECTOR,
    name: 'sfd_injector_certificate_expiry_timestamp_seconds',
    type: 'gauge',
    labels: [],
    help: "When the webhook's certificate in use stops being valid (Unix time).",
  },
] as const;

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
  /** Each key of each profile: when it stops, and whether it is the one in use now. */
  keys(): { profile: string; accessKeyId: string; notAfterMs: number | null; current: boolean }[];
  lastSuccessMs(): number | null;
  ready(): boolean;
}

export interface Metrics {
  readonly registry: Registry;
  readonly counters: Record<NameOf<'counter'>, Counter>;
  readonly histograms: Record<NameOf<'histogram'>, Histogram>;
  readonly perRequest: PerRequestMetrics;
  readonly clockSkew: Gauge;
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
  collectDefaultMetrics({ register: registry, prefix: 'sfd_' });
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
    counters,
    histograms,
    perRequest,
    clockSkew: gauges.sfd_clock_skew_seconds,
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

function familyDefinition(name: PerRequestName): { name: string; help: string; labelNames: readonly string[] } {
  const definition = METRIC_DEFINITIONS.find((d) => d.name === name)!;
  return { name, help: definition.help, labelNames: definition.labels };
}

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** `2xx`...`5xx` for a status code (0 when no response was sent: `0xx`). */
export function statusClass(status: number): string {
  const index = Math.floor(status / 100);
  return STATUS_CLASSES[index] ?? `${index}xx`;
}
