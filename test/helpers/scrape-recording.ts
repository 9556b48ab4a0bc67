// Scrapes of a real /metrics kept as series, written out as the input of a promtool rule test: each scrape
// is one sample, one evaluation interval after the one before, under the target labels Prometheus adds.
import { parseExposition, type Sample } from './exposition.js';

export interface ScrapeRecording {
  /** Keeps the samples of the named metric families from one scrape. */
  add(exposition: string): void;
  /** How many scrapes were kept. */
  readonly scrapes: () => number;
  /** The series in promtool's notation: `_` where a series had no sample yet. */
  series(targetLabels: Readonly<Record<string, string>>): { series: string; values: string }[];
}

const labelText = (labels: Readonly<Record<string, string>>): string =>
  Object.entries(labels)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(', ');

/** Metric names a rule file's expressions read: the families worth keeping from a scrape. */
export function metricNamesIn(expressions: readonly string[]): Set<string> {
  return new Set(expressions.flatMap((e) => [...e.matchAll(/\b(sfd_[a-z0-9_]+)\b/g)].map((m) => m[1]!)));
}

export function createScrapeRecording(families: ReadonlySet<string>): ScrapeRecording {
  const byKey = new Map<string, { name: string; labels: Record<string, string>; values: (number | null)[] }>();
  let count = 0;
  const keyOf = (sample: Pick<Sample, 'name' | 'labels'>): string => `${sample.name}{${labelText(sample.labels)}}`;
  return {
    add(exposition) {
      for (const sample of parseExposition(exposition)) {
        if (!families.has(sample.name)) continue;
        const key = keyOf(sample);
        let entry = byKey.get(key);
        if (!entry) {
          entry = { name: sample.name, labels: sample.labels, values: Array<number | null>(count).fill(null) };
          byKey.set(key, entry);
        }
        entry.values.push(sample.value);
      }
      count += 1;
      for (const entry of byKey.values()) if (entry.values.length < count) entry.values.push(null);
    },
    scrapes: () => count,
    series(targetLabels) {
      return [...byKey.values()]
        .sort((a, b) => keyOf(a).localeCompare(keyOf(b)))
        .map((entry) => ({
          series: `${entry.name}{${labelText({ ...targetLabels, ...entry.labels })}}`,
          values: entry.values.map((v) => (v === null ? '_' : String(v))).join(' '),
        }));
    },
  };
}
