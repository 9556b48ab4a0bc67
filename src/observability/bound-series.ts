// Counters and histograms for the per-request metrics, with each label set bound once.
// prom-client validates and hashes the whole label set on every update; here a
// request finds its series through one small map per label and adds to numbers it holds. The families
// register into the app's prom-client Registry, which still formats the whole exposition. A family may keep
// a trace id exemplar: the latest one per series (per bucket for a histogram, as prom-client keeps them),
// held in slots made with the series, so that recording one allocates nothing. The trace id comes
// checked (TraceId), once for all the series a request updates.
import type { Metric, Registry } from 'prom-client';
import { TRACE_ID_LABEL, type TraceId } from './trace-exemplar.js';

/** An exemplar as prom-client's own metrics hand it to the Registry, which writes it in OpenMetrics only. */
interface ExportedExemplar {
  readonly labelSet: Record<string, string>;
  readonly value: number;
  /** Seconds since the epoch. */
  readonly timestamp: number;
}

interface ExportedValue {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName?: string;
  readonly exemplar?: ExportedExemplar;
}

interface Family<Series> {
  /** The series for these label values, in the order of the family's label names; made on first use. */
  series(labelValues: readonly string[]): Series;
}

/**
 * An update's trace id becomes an exemplar when the family keeps them, stamped `atMs` (milliseconds since
 * the epoch; the clock read now when omitted).
 */
export interface CounterSeries {
  inc(traceId?: TraceId, atMs?: number): void;
}

export interface HistogramSeries {
  /** The trace id becomes the exemplar of the value's bucket. */
  observe(value: number, traceId?: TraceId, atMs?: number): void;
}

export type CounterFamily = Family<CounterSeries>;
export type HistogramFamily = Family<HistogramSeries>;

interface FamilyDefinition {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  /** Set when the family keeps trace id exemplars. */
  readonly exemplar?: typeof TRACE_ID_LABEL;
}

function exemplarOf(traceId: string, value: number, atMs: number): ExportedExemplar {
  return { labelSet: { [TRACE_ID_LABEL]: traceId }, value, timestamp: atMs / 1000 };
}

/** A tree of maps, one level per label, whose leaves are the series. */
interface SeriesIndex<Series> {
  readonly find: (labelValues: readonly string[]) => Series;
  readonly all: () => Series[];
  readonly clear: () => void;
}

function seriesIndex<Series>(depth: number, create: (labelValues: readonly string[]) => Series): SeriesIndex<Series> {
  let root = new Map<string, unknown>();
  const all: Series[] = [];
  return {
    find: (labelValues) => {
      let level = root;
      for (let i = 0; i < depth - 1; i += 1) {
        let next = level.get(labelValues[i]!) as Map<string, unknown> | undefined;
        if (next === undefined) {
          next = new Map();
          level.set(labelValues[i]!, next);
        }
        level = next;
      }
      let series = level.get(labelValues[depth - 1]!) as Series | undefined;
      if (series === undefined) {
        series = create(labelValues);
        level.set(labelValues[depth - 1]!, series);
        all.push(series);
      }
      return series;
    },
    all: () => all,
    clear: () => {
      root = new Map();
      all.length = 0;
    },
  };
}

function labelsOf(labelNames: readonly string[], labelValues: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  labelNames.forEach((name, i) => (labels[name] = labelValues[i]!));
  return labels;
}

/**
 * Registers a family into the Registry as prom-client's own metrics appear to it: name, help, type,
 * `get()` with the samples, and `reset()`.
 */
function register(
  registry: Registry,
  definition: FamilyDefinition,
  type: 'counter' | 'histogram',
  values: () => ExportedValue[],
  reset: () => void,
): void {
  const { name, help } = definition;
  // The name is read back from the object, as prom-client's metrics do: an OpenMetrics registry renames a
  // counter family (without `_total`) on the object it holds.
  const metric = {
    name,
    help,
    type,
    get: () => ({ name: metric.name, help, type, aggregator: 'sum', values: values() }),
    reset,
  };
  registry.registerMetric(metric as unknown as Metric);
}

export function createCounterFamily(registry: Registry, definition: FamilyDefinition): CounterFamily {
  const keepsExemplars = definition.exemplar !== undefined;
  const index = seriesIndex(definition.labelNames.length, (labelValues) => {
    const series = {
      labels: labelsOf(definition.labelNames, labelValues),
      value: 0,
      traceId: undefined as string | undefined,
      exemplarAtMs: 0,
      inc(traceId?: TraceId, atMs?: number): void {
        series.value += 1;
        if (keepsExemplars && traceId !== undefined) {
          series.traceId = traceId;
          series.exemplarAtMs = atMs ?? Date.now();
        }
      },
    };
    return series;
  });
  const values = (): ExportedValue[] =>
    index.all().map((series) => ({
      labels: series.labels,
      value: series.value,
      // An increment is by one, so the exemplar's value is one.
      ...(series.traceId === undefined ? {} : { exemplar: exemplarOf(series.traceId, 1, series.exemplarAtMs) }),
    }));
  register(registry, definition, 'counter', values, index.clear);
  return { series: index.find };
}

/** Each bucket's latest exemplar, by slot: its trace id (none yet: undefined), value and time. */
interface BucketExemplars {
  readonly traceIds: (string | undefined)[];
  readonly values: Float64Array;
  readonly atMs: Float64Array;
}

function bucketExemplars(slots: number): BucketExemplars {
  return {
    traceIds: new Array<undefined>(slots).fill(undefined),
    values: new Float64Array(slots),
    atMs: new Float64Array(slots),
  };
}

export function createHistogramFamily(
  registry: Registry,
  definition: FamilyDefinition & { readonly buckets: readonly number[] },
): HistogramFamily {
  const bounds = [...definition.buckets].sort((a, b) => a - b);
  const keepsExemplars = definition.exemplar !== undefined;
  const index = seriesIndex(definition.labelNames.length, (labelValues) => {
    const exemplars = keepsExemplars ? bucketExemplars(bounds.length + 1) : null;
    const series = {
      labels: labelsOf(definition.labelNames, labelValues),
      /** Observations per bucket, not cumulative; the last slot counts those above every bound. */
      counts: new Float64Array(bounds.length + 1),
      sum: 0,
      count: 0,
      exemplars,
      /** A value that is not a finite number is not counted (prom-client would throw at the caller). */
      observe(value: number, traceId?: TraceId, atMs?: number): void {
        if (!Number.isFinite(value)) return;
        let slot = 0;
        while (slot < bounds.length && value > bounds[slot]!) slot += 1;
        series.counts[slot]! += 1;
        series.sum += value;
        series.count += 1;
        if (exemplars !== null && traceId !== undefined) {
          exemplars.traceIds[slot] = traceId;
          exemplars.values[slot] = value;
          exemplars.atMs[slot] = atMs ?? Date.now();
        }
      },
    };
    return series;
  });
  const bucketName = `${definition.name}_bucket`;
  const exemplarAt = (exemplars: BucketExemplars | null, slot: number): { exemplar?: ExportedExemplar } => {
    const traceId = exemplars?.traceIds[slot];
    if (exemplars === null || traceId === undefined) return {};
    return { exemplar: exemplarOf(traceId, exemplars.values[slot]!, exemplars.atMs[slot]!) };
  };
  const values = (): ExportedValue[] =>
    index.all().flatMap((series) => {
      let cumulative = 0;
      const buckets = bounds.map((le, slot): ExportedValue => {
        cumulative += series.counts[slot]!;
        return {
          labels: { ...series.labels, le },
          value: cumulative,
          metricName: bucketName,
          ...exemplarAt(series.exemplars, slot),
        };
      });
      return [
        ...buckets,
        {
          labels: { ...series.labels, le: '+Inf' },
          value: series.count,
          metricName: bucketName,
          ...exemplarAt(series.exemplars, bounds.length),
        },
        { labels: series.labels, value: series.sum, metricName: `${definition.name}_sum` },
        { labels: series.labels, value: series.count, metricName: `${definition.name}_count` },
      ];
    });
  register(registry, definition, 'histogram', values, index.clear);
  return { series: index.find };
}
