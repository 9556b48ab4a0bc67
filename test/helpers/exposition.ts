// Reads a Prometheus text or OpenMetrics exposition into samples, for tests that check what a scrape shows.

export interface Exemplar {
  readonly labels: Record<string, string>;
  readonly value: number;
  /** Seconds since the epoch, when the exemplar has a timestamp. */
  readonly timestamp?: number;
}

export interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
  /** Only in OpenMetrics, and only where the exposition carries one. */
  readonly exemplar?: Exemplar;
}

/** A `{name="value",...}` label set, quoted values escaped. */
const LABEL_SET = String.raw`\{((?:[^"}]|"(?:[^"\\]|\\.)*")*)\}`;
const LINE = new RegExp(
  String.raw`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:${LABEL_SET})? (\S+)(?: # ${LABEL_SET} (\S+)(?: (\S+))?)?$`,
);

function labelsOf(text: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of (text ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
    labels[pair[1]!] = pair[2]!;
  return labels;
}

export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`unparsable exposition line: ${line}`);
    const sample = { name: match[1]!, labels: labelsOf(match[2]), value: Number(match[3]) };
    if (match[4] === undefined) {
      samples.push(sample);
      continue;
    }
    const exemplar = { labels: labelsOf(match[4]), value: Number(match[5]) };
    samples.push({
      ...sample,
      exemplar: match[6] === undefined ? exemplar : { ...exemplar, timestamp: Number(match[6]) },
    });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`, or undefined. */
export function valueOf(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
