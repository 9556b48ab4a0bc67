// The bound per-request series expose exactly what prom-client's own Counter and Histogram expose for
// the same updates: same samples, labels and values, so dashboards and alerts cannot tell them apart. With
// exemplars, the OpenMetrics exposition is prom-client's too, line for line, and the text format carries
// none, as prom-client's does.
import test from 'ava';
import fc from 'fast-check';
import { Counter, Histogram, Registry, type OpenMetricsContentType } from 'prom-client';
import { createCounterFamily, createHistogramFamily } from '../../../src/observability/bound-series.js';
import { exposition } from '../../../src/observability/exposition.js';
import { TRACE_ID_MAX_LENGTH, traceIdOf } from '../../../src/observability/trace-exemplar.js';
import { parseExposition, type Sample } from '../../helpers/exposition.js';

const BUCKETS = [0.001, 0.01, 0.1, 1, 10];
const LABEL_NAMES = ['profile', 'status'];
const OPENMETRICS_ACCEPT = 'application/openmetrics-text; version=1.0.0';
/** Label values, some of which the exposition must escape. */
const labelValue = fc.constantFrom('default', 'billing', '200', 'quote"d', 'back\\slash', 'new\nline', '');
/** Values on, between and beyond the bucket bounds. */
const observation = fc.oneof(fc.constantFrom(0, ...BUCKETS, 10.5), fc.double({ min: 0, max: 20, noNaN: true }));

/** A trace id as an answer carried it, and whether it has a trace id's form (hex, 16 to 64 digits). */
interface TraceId {
  readonly id: string | undefined;
  readonly wellFormed: boolean;
}
const wellFormed = fc
  .string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 16, maxLength: TRACE_ID_MAX_LENGTH })
  .map((id): TraceId => ({ id, wellFormed: true }));
/** What must never become an exemplar: paths, header lines, secrets, ids too short or too long. */
const illFormed = fc
  .oneof(
    fc.constantFrom(
      undefined,
      '',
      'abc123',
      '/v1.1/customer/12345',
      'Authorization: SFD AKTEST000000001:c2lnbmF0dXJl',
      '0123456789abcdef0123456789abcdef\n',
      ' 0123456789abcdef0123456789abcdef',
      '0123456789abcdef"}0123456789abcdef',
      'f'.repeat(TRACE_ID_MAX_LENGTH + 1),
      'g'.repeat(32),
    ),
    fc.string({ maxLength: 200 }).filter((id) => !/^[0-9a-fA-F]{16,64}$/.test(id)),
  )
  .map((id): TraceId => ({ id, wellFormed: false }));
const traceId = fc.oneof(wellFormed, illFormed);
const updates = fc.array(fc.tuple(labelValue, labelValue, observation, traceId), { maxLength: 40 });

/** Samples in one order, labels with sorted keys, so that two expositions compare by content. */
function normalized(text: string): string[] {
  return parseExposition(text)
    .map((s: Sample) =>
      JSON.stringify([s.name, Object.entries(s.labels).sort(([a], [b]) => (a < b ? -1 : 1)), s.value]),
    )
    .sort();
}

/** Each line as written, but for the order of the labels of a sample, which the two implementations differ in. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => {
      const open = line.indexOf('{');
      if (line.startsWith('#') || open < 0 || open > line.indexOf(' ')) return line;
      const pairs: string[] = [];
      let start = open + 1;
      let quoted = false;
      let at = start;
      for (; at < line.length; at += 1) {
        const char = line[at];
        if (quoted) {
          if (char === '\\') at += 1;
          else if (char === '"') quoted = false;
        } else if (char === '"') quoted = true;
        else if (char === ',' || char === '}') {
          pairs.push(line.slice(start, at));
          start = at + 1;
          if (char === '}') break;
        }
      }
      return `${line.slice(0, open)}{${pairs.sort().join(',')}}${line.slice(at + 1)}`;
    })
    .sort();
}

function openMetricsRegistry(): Registry<OpenMetricsContentType> {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  return registry;
}

/** Runs prom-client's update at `ms` on the wall clock, which prom-client reads for an exemplar's time. */
function at<T>(ms: number, update: () => T): T {
  const realNow = Date.now;
  Date.now = () => ms;
  try {
    return update();
  } finally {
    Date.now = realNow;
  }
}

test('a histogram family exposes what a prom-client Histogram exposes for the same observations', async (t) => {
  await fc.assert(
    fc.asyncProperty(updates, async (observations) => {
      const ours = new Registry();
      const theirs = new Registry();
      const family = createHistogramFamily(ours, {
        name: 'h_seconds',
        help: 'help',
        labelNames: LABEL_NAMES,
        buckets: BUCKETS,
        exemplar: 'trace_id',
      });
      const reference = new Histogram({
        name: 'h_seconds',
        help: 'help',
        labelNames: LABEL_NAMES,
        buckets: BUCKETS,
        registers: [theirs],
      });
      for (const [profile, status, value, { id }] of observations) {
        family.series([profile, status]).observe(value, traceIdOf(id));
        reference.observe({ profile, status }, value);
      }
      t.deepEqual(normalized(await ours.metrics()), normalized(await theirs.metrics()));
      t.false((await ours.metrics()).includes(' # {'), 'the text format carries no exemplar');
    }),
  );
});

test('a counter family exposes what a prom-client Counter exposes for the same increments', async (t) => {
  await fc.assert(
    fc.asyncProperty(updates, async (increments) => {
      const ours = new Registry();
      const theirs = new Registry();
      const family = createCounterFamily(ours, {
        name: 'c_total',
        help: 'help',
        labelNames: LABEL_NAMES,
        exemplar: 'trace_id',
      });
      const reference = new Counter({ name: 'c_total', help: 'help', labelNames: LABEL_NAMES, registers: [theirs] });
      for (const [profile, status, , { id }] of increments) {
        family.series([profile, status]).inc(traceIdOf(id));
        reference.inc({ profile, status });
      }
      t.deepEqual(normalized(await ours.metrics()), normalized(await theirs.metrics()));
      t.false((await ours.metrics()).includes(' # {'), 'the text format carries no exemplar');
    }),
  );
});

test('in OpenMetrics, a histogram family writes the exemplars a prom-client Histogram writes', async (t) => {
  await fc.assert(
    fc.asyncProperty(updates, async (observations) => {
      const ours = new Registry();
      const theirs = openMetricsRegistry();
      let ms = 1_700_000_000_000;
      const family = createHistogramFamily(ours, {
        name: 'h_seconds',
        help: 'help',
        labelNames: LABEL_NAMES,
        buckets: BUCKETS,
        exemplar: 'trace_id',
      });
      const reference = new Histogram({
        name: 'h_seconds',
        help: 'help',
        labelNames: LABEL_NAMES,
        buckets: BUCKETS,
        enableExemplars: true,
        registers: [theirs],
      });
      for (const [profile, status, value, { id, wellFormed }] of observations) {
        ms += 1001;
        family.series([profile, status]).observe(value, traceIdOf(id), ms);
        at(ms, () =>
          reference.observe({
            labels: { profile, status },
            value,
            ...(wellFormed ? { exemplarLabels: { trace_id: id! } } : {}),
          }),
        );
      }
      const written = await exposition(ours, OPENMETRICS_ACCEPT);
      t.is(written.contentType, theirs.contentType);
      t.deepEqual(lines(written.body), lines(await theirs.metrics()));
    }),
  );
});

test('in OpenMetrics, a counter family writes the exemplars a prom-client Counter writes', async (t) => {
  await fc.assert(
    fc.asyncProperty(updates, async (increments) => {
      const ours = new Registry();
      const theirs = openMetricsRegistry();
      let ms = 1_700_000_000_000;
      const definition = { name: 'c_total', help: 'help', labelNames: LABEL_NAMES, exemplar: 'trace_id' } as const;
      const family = createCounterFamily(ours, definition);
      const reference = new Counter({
        name: 'c_total',
        help: 'help',
        labelNames: LABEL_NAMES,
        enableExemplars: true,
        registers: [theirs],
      });
      for (const [profile, status, , { id, wellFormed }] of increments) {
        ms += 1001;
        family.series([profile, status]).inc(traceIdOf(id), ms);
        at(ms, () =>
          reference.inc({ labels: { profile, status }, ...(wellFormed ? { exemplarLabels: { trace_id: id! } } : {}) }),
        );
      }
      t.deepEqual(lines((await exposition(ours, OPENMETRICS_ACCEPT)).body), lines(await theirs.metrics()));
    }),
  );
});

test('a family without exemplars keeps none, whatever trace id its updates bring', async (t) => {
  const registry = new Registry();
  const counter = createCounterFamily(registry, { name: 'c_total', help: 'help', labelNames: ['profile'] });
  const histogram = createHistogramFamily(registry, {
    name: 'h_seconds',
    help: 'help',
    labelNames: ['profile'],
    buckets: BUCKETS,
  });
  counter.series(['default']).inc(traceIdOf('0123456789abcdef0123456789abcdef'));
  histogram.series(['default']).observe(0.5, traceIdOf('0123456789abcdef0123456789abcdef'));
  const samples = parseExposition((await exposition(registry, OPENMETRICS_ACCEPT)).body);
  t.is(samples.length, 1 + BUCKETS.length + 3);
  t.true(samples.every((sample) => sample.exemplar === undefined));
});

test('the longest trace id kept fits the 128 characters OpenMetrics allows an exemplar label set', async (t) => {
  const registry = new Registry();
  const counter = createCounterFamily(registry, {
    name: 'c_total',
    help: 'help',
    labelNames: [],
    exemplar: 'trace_id',
  });
  const longest = 'a'.repeat(TRACE_ID_MAX_LENGTH);
  counter.series([]).inc(traceIdOf(longest));
  counter.series([]).inc(traceIdOf(`${longest}b`));
  const [sample] = parseExposition((await exposition(registry, OPENMETRICS_ACCEPT)).body);
  t.deepEqual(sample?.exemplar?.labels, { trace_id: longest });
  t.true('trace_id'.length + longest.length <= 128);
});

test('a series is bound once: the same label values find the same series', async (t) => {
  const registry = new Registry();
  const family = createCounterFamily(registry, { name: 'c_total', help: 'help', labelNames: LABEL_NAMES });
  t.is(family.series(['default', '200']), family.series(['default', '200']));
  t.not(family.series(['default', '200']), family.series(['default', '500']));
  family.series(['default', '200']).inc();
  family.series(['default', '200']).inc();
  t.deepEqual(parseExposition(await registry.metrics()), [
    { name: 'c_total', labels: { profile: 'default', status: '200' }, value: 2 },
    { name: 'c_total', labels: { profile: 'default', status: '500' }, value: 0 },
  ]);
});

test(
  'a value that is not a finite number is not ' + 'counted, and resetting the registry empties the ' + 'families',
  async (t) => {
    const registry = new Registry();
    const family = createHistogramFamily(registry, {
      name: 'h_seconds',
      help: 'help',
      labelNames: ['profile'],
      buckets: BUCKETS,
    });
    family.series(['default']).observe(Number.NaN);
    family.series(['default']).observe(Number.POSITIVE_INFINITY);
    family.series(['default']).observe(0.5);
    const samples = parseExposition(await registry.metrics());
    t.is(samples.find((s) => s.name === 'h_seconds_count')?.value, 1);
    t.is(samples.find((s) => s.name === 'h_seconds_sum')?.value, 0.5);
    registry.resetMetrics();
    t.deepEqual(parseExposition(await registry.metrics()), []);
  },
);
