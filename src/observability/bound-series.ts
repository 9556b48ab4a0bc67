// Counters and histograms for the per-request metrics, with each label set bound once.
// prom-client validates and hashes the whole label set on every update; here a
// request finds its series through one small map per label and adds to numbers it holds. The families
// register into the app's prom-client Registry, which still formats the whole exposition.
import type { Metric, Registry } from 'prom-client';

interface ExportedValue {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName?: string;
}

interface Family<Series> {
  /** The series for these label values, in the order of the family's label names; made on first use. */
  series(labelValues: readonly string[]): Series;
}

export interface CounterSeries {
  inc(): void;
}

export interface HistogramSeries {
  observe(value: number): void;
}

export type CounterFamily = Family<CounterSeries>;
export type HistogramFamily = Family<HistogramSeries>;

interface FamilyDefinition {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
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
  const metric = { name, help, type, get: () => ({ name, help, type, aggregator: 'sum', values: values() }), reset };
  registry.registerMetric(metric as unknown as Metric);
}

export function createCounterFamily(registry: Registry, definition: FamilyDefinition): CounterFamily {
  const index = seriesIndex(definition.labelNames.length, (labelValues) => {
    const series = {
      labels: labelsOf(definition.labelNames, labelValues),
      value: 0,
      inc: () => void (series.value += 1),
    };
    return series;
  });
  const values = (): ExportedValue[] => index.all().map((series) => ({ labels: series.labels, value: series.value }));
  register(registry, definition, 'counter', values, index.clear);
  return { series: index.find };
}

export function createHistogramFamily(
  registry: Registry,
  definition: FamilyDefinition & { readonly buckets: readonly number[] },
): HistogramFamily {
  const bounds = [...definition.buckets].sort((a, b) => a - b);
  const index = seriesIndex(definition.labelNames.length, (labelValues) => {
    const series = {
      labels: labelsOf(definition.labelNames, labelValues),
      /** Observations per bucket, not cumulative; the last slot counts those above every bound. */
      counts: new Float64Array(bounds.length + 1),
      sum: 0,
      count: 0,
      /** A value that is not a finite number is not counted (prom-client would throw at the caller). */
      observe(value: number): void {
        if (!Number.isFinite(value)) return;
        let slot = 0;
        while (slot < bounds.length && value > bounds[slot]!) slot += 1;
        series.counts[slot]! += 1;
        series.sum += value;
        series.count += 1;
      },
    };
    return series;
  });
  const bucketName = `${definition.name}_bucket`;
  const values = (): ExportedValue[] =>
    index.all().flatMap((series) => {
      let cumulative = 0;
      const buckets = bounds.map((le, slot): ExportedValue => {
        cumulative += series.counts[slot]!;
        return { labels: { ...series.labels, le }, value: cumulative, metricName: bucketName };
      });
      return [
        ...buckets,
        { labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: bucketName },
        { labels: series.labels, value: series.sum, metricName: `${definition.name}_sum` },
        { labels: series.labels, value: series.count, metricName: `${definition.name}_count` },
      ];
    });
  register(registry, definition, 'histogram', values, index.clear);
  return { series: index.find };
}
