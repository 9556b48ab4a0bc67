// The process metrics every scrape carries: prom-client's default families under the sfd_ prefix, with the
// event loop's delay sampled only while signed requests come, so that an idle sidecar is never woken for it.
import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createMetrics } from '../../src/observability/metrics.js';

/** Family names of an exposition. */
const families = (text: string): string[] =>
  [...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]!).sort((a, b) => a.localeCompare(b));

/** Holds the event loop for `ms`, as a slow request handler would. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const gaugeValue = (text: string, name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

test("the process families are prom-client's default ones, names and types alike", async (t) => {
  const reference = new Registry();
  collectDefaultMetrics({ register: reference, prefix: 'sfd_' });
  const removed = new Set(['active_handles_total', 'active_requests_total', 'active_resources_total']);
  const expected = families(await reference.metrics()).filter((name) => ![...removed].some((r) => name.endsWith(r)));
  const ours = families(await createMetrics().registry.metrics());
  t.deepEqual(
    expected.filter((name) => !ours.includes(name)),
    [],
  );
  const referenceTypes = new Map(
    [...(await reference.metrics()).matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]),
  );
  for (const [, name, type] of (await createMetrics().registry.metrics()).matchAll(/^# TYPE (\S+) (\S+)$/gm))
    if (referenceTypes.has(name)) t.is(type, referenceTypes.get(name), name);
});

test('the event loop delay is sampled from the first signed request on, never before', async (t) => {
  const metrics = createMetrics();
  await metrics.registry.metrics();
  block(60);
  await sleep(30);
  const idle = await metrics.registry.metrics();
  t.is(gaugeValue(idle, 'sfd_nodejs_eventloop_lag_max_seconds'), 0, 'no request yet: nothing sampled');
  t.regex(idle, /# HELP sfd_nodejs_eventloop_lag_p99_seconds .*from a request until/);

  metrics.eventLoop.noteRequest();
  await sleep(30);
  block(60);
  await sleep(30);
  const busy = await metrics.registry.metrics();
  t.true(gaugeValue(busy, 'sfd_nodejs_eventloop_lag_max_seconds') >= 0.04, 'the held loop was sampled');
  metrics.eventLoop.stop();
});
