// The bound per-request series expose exactly what prom-client's own Counter and Histogram expose for
// the same updates: same samples, labels and values, so dashboards and alerts cannot tell them apart.
import test from 'ava';
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { createCounterFamily, createHistogramFamily } from '../../../src/observability/bound-series.js';
import { parseExposition, type Sample } from '../../helpers/exposition.js';

const BUCKETS = [0.001, 0.01, 0.1, 1, 10];
const LABEL_NAMES = ['profile', 'status'];
/** Label values, some of which the exposition must escape. */
const labelValue = fc.constantFrom('default', 'billing', '200', 'quote"d', 'back\\slash', 'new\nline', '');
/** Values on, between and beyond the bucket bounds. */
const observation = fc.oneof(fc.constantFrom(0, ...BUCKETS, 10.5), fc.double({ min: 0, max: 20, noNaN: true }));
const updates = fc.array(fc.tuple(labelValue, labelValue, observation), { maxLength: 40 });

/** Samples in one order, labels with sorted keys, so that two expositions compare by content. */
function normalized(text: string): string[] {
  return parseExposition(text)
    .map((s: Sample) =>
      JSON.stringify([s.name, Object.entries(s.labels).sort(([a], [b]) => (a < b ? -1 : 1)), s.value]),
    )
    .sort();
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
      });
      const reference = new Histogram({
        name: 'h_seconds',
        help: 'help',
        labelNames: LABEL_NAMES,
        buckets: BUCKETS,
        registers: [theirs],
      });
      for (const [profile, status, value] of observations) {
        family.series([profile, status]).observe(value);
        reference.observe({ profile, status }, value);
      }
      t.deepEqual(normalized(await ours.metrics()), normalized(await theirs.metrics()));
    }),
  );
});

test('a counter family exposes what a prom-client Counter exposes for the same increments', async (t) => {
  await fc.assert(
    fc.asyncProperty(updates, async (increments) => {
      const ours = new Registry();
      const theirs = new Registry();
      const family = createCounterFamily(ours, { name: 'c_total', help: 'help', labelNames: LABEL_NAMES });
      const reference = new Counter({ name: 'c_total', help: 'help', labelNames: LABEL_NAMES, registers: [theirs] });
      for (const [profile, status] of increments) {
        family.series([profile, status]).inc();
        reference.inc({ profile, status });
      }
      t.deepEqual(normalized(await ours.metrics()), normalized(await theirs.metrics()));
    }),
  );
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
