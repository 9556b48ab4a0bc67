// The emulator plays the service's side: asked through the sidecar (a signed request), it sends a
// recording's lifecycle to the relay, which hands each event to the application in order.
import test from 'ava';
import { startNotifyRelay } from '../../src/notify/start-notify-relay.js';
import { parseNotification } from '../../src/notify/notifications.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { send } from '../helpers/http.js';
import { captureLogs } from '../helpers/log-capture.js';
import { relayConfig } from '../helpers/relay-config.js';
import { startStack } from '../helpers/stack.js';
import { startTestApp } from '../helpers/test-app.js';

for (const outcome of ['ended', 'error'] as const) {
  const ends = outcome === 'ended' ? 'ends' : 'fails';
  test(`a recording that ${ends} reaches the app as started, then ${outcome}`, async (t) => {
    const app = await startTestApp(t);
    const config = relayConfig(app.url, {
      token: 'lifecycle-token-0123456789',
      allowedCidrs: '127.0.0.0/8',
    });
    const relay = await startNotifyRelay(config, {
      logger: captureLogs().logger,
      metrics: createMetrics(),
      now: Date.now,
    });
    t.teardown(() => relay.close(0));
    const { proxyUrl } = await startStack(t);
    const callbackUrl = `http://127.0.0.1:${relay.address.port}/notifications/lifecycle-token-0123456789`;
    const answer = await send(`${proxyUrl}/_emulator/notifications/recording`, {
      method: 'POST',
      body: JSON.stringify({ callbackUrl, outcome, recordingId: 'rec-42', streamId: 'cam-7' }),
    });
    t.is(answer.status, 200, answer.body.toString());
    t.deepEqual(
      answer
        .json<{ sent: { status: string; callbackStatus: number }[] }>()
        .sent.map((s) => [s.status, s.callbackStatus]),
      [
        ['started', 200],
        [outcome, 200],
      ],
    );
    const events = app.received.map((r) => parseNotification(JSON.parse(r.body.toString())));
    t.is(events.length, 2);
    const [first, second] = events;
    if (!first?.ok || !second?.ok) return t.fail('the app got an invalid event');
    t.like(first.notification, {
      type: 'SYNC_RECORDING_RESULT_EVENT',
      data: { status: 'started', recordingId: 'rec-42', streamId: 'cam-7' },
    });
    t.like(second.notification, { data: { status: outcome, recordingId: 'rec-42' } });
    t.is(app.received[1]!.headers['idempotency-key'], second.notification.id);
  });
}
