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
import { exposition, type Exposition } from './exposition.js';
import type { TRACE_ID_LABEL } from './trace-exemplar.js';
import { METRIC_DEFINITIONS, type MetricsComponent } from './metric-definitions.js';
import { isPerRequest, type NameOf, type PerRequestName } from './metric-names.js';
import {
  emptyScrapeSources,
  type KeyMetricsSource,
  type ScrapeSources,
  type UpstreamConnectionCounts,
} from './scrape-sources.js';
import { counterCollectors, gaugeCollectors } from './scrape-collectors.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type { KeyMetricsSource, UpstreamConnectionCounts } from './scrape-sources.js';

/** The per-request metrics; series take their label values in the order of METRIC_DEFINITIONS' labels. */
export interface PerRequestMetrics {
  readonly requests: CounterFamily;
  readonly requestDuration: HistogramFamily;
  readonly upstreamDuration: HistogramFamily;
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
  const registry = processRegistry();
  const eventLoop = createEventLoopDelay(registry, 'sfd_', component === 'sidecar' ? 'while-requests-come' : 'always');
  withoutTotalGauges(registry);
  const sources = emptyScrapeSources();
  // Registered first, as they are listed first in METRIC_DEFINITIONS.
  const perRequest = component === 'sidecar' ? perRequestMetrics(registry) : NO_PER_REQUEST;
  const { counters, histograms, gauges } = registerDefinitions(registry, component, sources);
  return {
    registry,
    exposition: (accept) => exposition(registry, accept),
    counters,
    histograms,
    perRequest,
    clockSkew: gauges.sfd_clock_skew_seconds,
    eventLoop,
    ...observers(sources),
  };
}

/** A registry of its own, with the process' own metrics (CPU, memory, handles) under `sfd_`. */
function processRegistry(): Registry {
  const registry = new Registry();
  for (const collect of PROCESS_COLLECTORS) collect(registry, { prefix: 'sfd_' });
  return registry;
}

/**
 * prom-client names three gauges `*_total`, which Prometheus' own lint (promtool check metrics)
 * refuses for non-counters; they are left out so that every sfd_* family passes it.
 */
function withoutTotalGauges(registry: Registry): void {
  for (const name of [
    'sfd_nodejs_active_handles_total',
    'sfd_nodejs_active_requests_total',
    'sfd_nodejs_active_resources_total',
  ]) {
    registry.removeSingleMetric(name);
  }
}

function perRequestMetrics(registry: Registry): PerRequestMetrics {
  return {
    requests: createCounterFamily(registry, familyDefinition('sfd_requests_total')),
    requestDuration: createHistogramFamily(registry, {
      ...familyDefinition('sfd_request_duration_seconds'),
      buckets: LATENCY_BUCKETS,
    }),
    upstreamDuration: createHistogramFamily(registry, {
      ...familyDefinition('sfd_upstream_duration_seconds'),
      buckets: LATENCY_BUCKETS,
    }),
  };
}

interface RegisteredMetrics {
  readonly counters: Record<NameOf<'counter'>, Counter>;
  readonly histograms: Record<NameOf<'histogram'>, Histogram>;
  readonly gauges: Record<NameOf<'gauge'>, Gauge>;
}

/** Every metric of METRIC_DEFINITIONS the component has, but the per-request ones, in their order. */
function registerDefinitions(
  registry: Registry,
  component: MetricsComponent,
  sources: ScrapeSources,
): RegisteredMetrics {
  const counters = {} as Record<NameOf<'counter'>, Counter>;
  const histograms = {} as Record<NameOf<'histogram'>, Histogram>;
  const gauges = {} as Record<NameOf<'gauge'>, Gauge>;
  const collectCounter = counterCollectors(sources);
  const collectGauge = gaugeCollectors(sources);
  for (const definition of METRIC_DEFINITIONS) {
    if (isPerRequest(definition.name) || !definition.for.includes(component)) continue;
    const base = {
      name: definition.name,
      help: definition.help,
      labelNames: [...definition.labels],
      registers: [registry],
    };
    if (definition.type === 'counter')
      counters[definition.name] = new Counter(withCollect(base, collectCounter[definition.name]));
    else if (definition.type === 'histogram')
      histograms[definition.name] = new Histogram({ ...base, buckets: LATENCY_BUCKETS });
    else gauges[definition.name] = new Gauge(withCollect(base, collectGauge[definition.name]));
  }
  return { counters, histograms, gauges };
}

/** A metric's configuration, with the collector prom-client calls at each scrape when it has one. */
function withCollect<T extends object, M>(base: T, collect: ((metric: M) => void) | undefined): T {
  if (!collect) return base;
  return {
    ...base,
    collect(this: M) {
      collect(this);
    },
  };
}

/** The `observe*` methods, each connecting one scrape-time source. */
function observers(sources: ScrapeSources): Pick<Metrics, Extract<keyof Metrics, `observe${string}`>> {
  return {
    observeInflight: (read) => {
      sources.inflight = read;
    },
    observeBufferedBodyBytes: (read) => {
      sources.bufferedBodyBytes = read;
    },
    observeKeys: (keys) => {
      sources.keys = keys;
    },
    observeUpstreamConnections: (read) => {
      sources.upstream = read;
    },
    observeLogDrops: (read) => {
      sources.logDrops = read;
    },
    observeConnections: (listener, read) => {
      sources.connections.set(listener, read);
    },
    observeCertificateExpiry: (read) => {
      sources.certificateExpiry = read;
    },
  };
}

/** Where per-request series would be in a process that serves no signed requests. */
const NO_PER_REQUEST: PerRequestMetrics = {
  requests: { series: () => ({ inc: () => undefined }) },
  requestDuration: { series: () => ({ observe: () => undefined }) },
  upstreamDuration: { series: () => ({ observe: () => undefined }) },
};

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
