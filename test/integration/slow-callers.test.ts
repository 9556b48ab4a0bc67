// Callers that declare large bodies and send them a byte at a time cannot lock others out: the body
// budget counts bytes as they arrive, a notification holds a place in the relay only once its body has
// arrived, and a body slower than SFD_CLIENT_MIN_BODY_BYTES_PER_SECOND is cut off with 408.
import net from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';
import { recordingEvent } from '../../src/notify/build-events.js';
import { startNotifyRelay } from '../../src/notify/start-notify-relay.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { send, statusOf } from '../helpers/http.js';
import { eventually } from '../helpers/time.js';
import { captureLogs } from '../helpers/log-capture.js';
import { relayConfig } from '../helpers/relay-config.js';
import { startStack } from '../helpers/stack.js';
import { startTestApp } from '../helpers/test-app.js';

/** A caller that sends a request head (declaring a body), then one byte of body every `everyMs` until the test ends. */
function trickle(
  t: ExecutionContext,
  port: number,
  head: string,
  everyMs: number,
): { received: () => string; bodyBytesSent: () => number } {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let bodyBytes = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('connect', () => socket.write(head));
  const timer = setInterval(() => socket.writable && socket.write('a', () => (bodyBytes += 1)), everyMs);
  t.teardown(() => {
    clearInterval(timer);
    socket.destroy();
  });
  return { received: () => received, bodyBytesSent: () => bodyBytes };
}

const slowPost = (path: string, declared: number, extra = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${extra}Content-Length: ${declared}\r\n\r\n`;

test(
  'slow callers that declare the whole body budget hold ' + 'only what they sent: a small POST still goes through',
  async (t) => {
    const budget = 64 * 1024;
    const { sidecar, proxyUrl, adminUrl } = await startStack(t, {
      sidecar: {
        maxBodyBytes: 16 * 1024,
        limits: { ...DEFAULT_LIMITS, maxBufferedBodyBytes: budget, clientMinBodyBytesPerSecond: 0 },
      },
    });
    for (let i = 0; i < 4; i += 1)
      trickle(t, sidecar.proxyAddress.port, slowPost('/cdn/v1.0/services/1/rateLimit', 16 * 1024), 200);
    const gauge = async (name: string) =>
      valueOf(parseExposition((await send(`${adminUrl}/metrics`)).body.toString()), name) ?? 0;
    // The slow callers are in and have sent body bytes (which bytes count is what the gauge shows).
    const callersIn = async () =>
      (await gauge('sfd_inflight_requests')) >= 4 && (await gauge('sfd_buffered_body_bytes')) >= 4;
    t.true(await eventually(callersIn), 'the slow callers are in');
    const small = await send(`${proxyUrl}/cdn/v1.0/services/1001/rateLimit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"timeWindow":60,"requestLimit":100}',
    });
    t.is(small.status, 200, small.body.toString());
    const held = valueOf(
      parseExposition((await send(`${adminUrl}/metrics`)).body.toString()),
      'sfd_buffered_body_bytes',
    )!;
    t.true(held > 0 && held < 100, `the gauge shows the bytes actually held (${held}), not the 64 KiB declared`);
  },
);

test(
  'a body slower than the minimum rate is cut off ' + 'with 408 after its grace, and the connection ' + 'closed',
  async (t) => {
    const { sidecar, adminUrl, logs } = await startStack(t, {
      sidecar: { limits: { ...DEFAULT_LIMITS, clientMinBodyBytesPerSecond: 1024 } },
    });
    const started = Date.now();
    const slow = trickle(t, sidecar.proxyAddress.port, slowPost('/cdn/v1.0/services/1/rateLimit', 4096), 300);
    t.true(await eventually(() => slow.received().length > 0, 6000));
    const elapsed = Date.now() - started;
    t.is(statusOf(slow.received()), 408);
    t.regex(slow.received(), /Sidecar\.RequestTimeout/);
    t.regex(slow.received(), /\r\nConnection: close\r\n/i);
    t.true(elapsed >= 2000 && elapsed < 5000, `cut off after the two seconds of grace (${elapsed} ms)`);
    t.true(
      await eventually(() =>
        logs.lines().some((l) => l.event === 'request' && l.errorCode === 'Sidecar.RequestTimeout'),
      ),
    );
    t.is(
      valueOf(parseExposition((await send(`${adminUrl}/metrics`)).body.toString()), 'sfd_sidecar_errors_total', {
        code: 'Sidecar.RequestTimeout',
      }),
      1,
    );
  },
);

test(
  'notifications still arriving hold no place in the ' +
    'relay: a complete one is delivered while slow ones ' +
    'trickle',
  async (t) => {
    const app = await startTestApp(t);
    const { logger } = captureLogs();
    const metrics = createMetrics();
    const relay = await startNotifyRelay(relayConfig(app.url, { requireHeader: false, maxInflight: 2 }), {
      logger,
      metrics,
      now: Date.now,
      callerLimits: { ...DEFAULT_LIMITS, clientMinBodyBytesPerSecond: 0 },
    });
    t.teardown(() => relay.close(0));
    const slow = Array.from({ length: 4 }, () =>
      trickle(t, relay.address.port, slowPost('/notifications', 60_000), 200),
    );
    const open = async () =>
      (await metrics.registry.getSingleMetric('sfd_connections_open')?.get())?.values.find(
        (v) => v.labels.listener === 'notifications',
      )?.value ?? 0;
    // Each slow caller is connected and has sent its head and a first body byte.
    t.true(
      await eventually(async () => (await open()) >= 4 && slow.every((caller) => caller.bodyBytesSent() >= 1)),
      'the slow callers are in',
    );
    const event = recordingEvent({
      status: 'started',
      recordingId: 'rec-slow',
      streamId: 's-1',
      startedMs: Date.now(),
      nowMs: Date.now(),
    });
    const answer = await send(`http://127.0.0.1:${relay.address.port}/notifications`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(event),
    });
    t.is(answer.status, 200, answer.body.toString());
    t.is(app.received.length, 1);
  },
);
