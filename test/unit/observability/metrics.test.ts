// Metrics read at scrape time: the dropped log lines counter shows the log writer's own count.
import test from 'ava';
import { createMetrics } from '../../../src/observability/metrics.js';

test('sfd_log_lines_dropped_total is read from the log writer at every scrape, 0 until it drops', async (t) => {
  const metrics = createMetrics();
  t.regex(await metrics.registry.metrics(), /^sfd_log_lines_dropped_total 0$/m);
  let dropped = 7;
  metrics.observeLogDrops(() => dropped);
  t.regex(await metrics.registry.metrics(), /^sfd_log_lines_dropped_total 7$/m);
  dropped = 12;
  t.regex(await metrics.registry.metrics(), /^sfd_log_lines_dropped_total 12$/m);
});
