// The notification relay with a real application behind it: delivery with an Idempotency-Key,
// acknowledgement only after the app accepted, refusals (token, source, header, method, type, size),
// invalid events listed and dead-lettered, app failures answered 503, and duplicates delivered once.
import { mkdtempSync, readFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { NotifyConfig } from '../../src/notify/notify-config.js';
import { recordingEvent } from '../../src/notify/build-events.js';
import { DEAD_LETTER_FILE } from '../../src/notify/dead-letter.js';
import { startNotifyRelay } from '../../src/notify/start-notify-relay.js';
import { createMetrics, type Metrics } from '../../src/observability/metrics.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { eventually } from '../helpers/time.js';
import { okResponse, onRequestHead, startFaultyUpstream } from '../helpers/faulty-upstream.js';
import {
  oneWholeResponse,
  rawExchange,
  rawExchangeEnding,
  send,
  sendExpectingContinue,
  statusOf,
} from '../helpers/http.js';
import { captureLogs } from '../helpers/log-capture.js';
import { relayConfig } from '../helpers/relay-config.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';

const TOKEN = 'relay-token-0123456789abcdef';
const event = (status: 'started' | 'ended' | 'error' = 'started') =>
  recordingEvent({
    status,
    recordingId: 'rec-1',
    streamId: 'stream-1',
    startedMs: Date.now() - 60_000,
    nowMs: Date.now(),
  });
const lls = { 'Content-Type': 'application/json', 'X-SFD-Notification-From': 'LLS' };

async function relayFor(t: ExecutionContext, app: TestApp, overrides: Partial<NotifyConfig> = {}) {
  const metrics = createMetrics();
  const logs = captureLogs();
  const config = relayConfig(app.url, overrides);
  const relay = await startNotifyRelay(config, { logger: logs.logger, metrics, now: Date.now });
  t.teardown(() => relay.close(0));
  return { url: `http://127.0.0.1:${relay.address.port}${config.path}`, metrics, logs };
}

const counted = async (metrics: Metrics, result: string): Promise<number> => {
  const samples = parseExposition(await metrics.registry.metrics()).filter(
    (s) => s.name === 'sfd_notifications_total' && s.labels.result === result,
  );
  return samples.reduce((sum, s) => sum + s.value, 0);
};

test(
  'a valid event reaches the app unchanged with an Idempotency-Key, and the service gets 200 after the app ' +
    'accepted',
  async (t) => {
    const app = await startTestApp(t);
    const { url, metrics } = await relayFor(t, app);
    const body = JSON.stringify(event('ended'));
    const answer = await send(url, { method: 'POST', headers: { ...lls, 'X-Custom': 'kept' }, body });
    t.is(answer.status, 200);
    t.like(answer.json(), { status: 'delivered' });
    t.is(app.received.length, 1);
    const delivered = app.received[0]!;
    t.is(delivered.body.toString(), body);
    t.is(delivered.url, '/hooks/sfd');
    t.is(delivered.headers['idempotency-key'], (JSON.parse(body) as { id: string }).id);
    t.is(delivered.headers['x-sfd-notification-from'], 'LLS');
    t.is(delivered.headers['x-custom'], 'kept');
    t.is(
      valueOf(parseExposition(await metrics.registry.metrics()), 'sfd_notifications_total', {
        type: 'SYNC_RECORDING_RESULT_EVENT',
        status: 'ended',
        result: 'delivered',
      }),
      1,
    );
  },
);

test(
  'both spellings of the notification header are ' +
    'accepted; without it the event is refused unless ' +
    'switched off',
  async (t) => {
    const app = await startTestApp(t);
    const { url, metrics } = await relayFor(t, app);
    t.is(
      (
        await send(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Notification-from': 'LLS' },
          body: JSON.stringify(event()),
        })
      ).status,
      200,
    );
    const refused = await send(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(event()),
    });
    t.is(refused.status, 403);
    t.is(refused.json().code, 'Sidecar.NotificationForbidden');
    t.is(await counted(metrics, 'refused'), 1);
    const open = await relayFor(t, app, { requireHeader: false });
    t.is(
      (
        await send(open.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(event()),
        })
      ).status,
      200,
    );
  },
);

test(
  'a service that waits for 100 Continue is asked for the event only on the right path, and refused without ' +
    'being asked elsewhere',
  async (t) => {
    const app = await startTestApp(t);
    const { url } = await relayFor(t, app, { token: TOKEN });
    const body = JSON.stringify(event());
    const accepted = await sendExpectingContinue(`${url}/${TOKEN}`, { headers: lls, body });
    t.like(accepted, { continued: true, bodySent: true, status: 200 });
    t.is(app.received[0]?.body.toString(), body);
    const wrongToken = await sendExpectingContinue(`${url}/not-the-token`, { headers: lls, body });
    t.like(wrongToken, { continued: false, bodySent: false, status: 403, headers: { connection: 'close' } });
    const tooLarge = await sendExpectingContinue(`${url}/${TOKEN}`, { headers: lls, body: 'x'.repeat(65537) });
    t.like(tooLarge, { continued: false, bodySent: false, status: 413, headers: { connection: 'close' } });
    t.is(app.received.length, 1);
  },
);

test('with a token, only the path ending in the token is accepted', async (t) => {
  const app = await startTestApp(t);
  const { url } = await relayFor(t, app, { token: TOKEN });
  const body = JSON.stringify(event());
  t.is((await send(url, { method: 'POST', headers: lls, body })).status, 403);
  t.is((await send(`${url}/wrong-token-0123456789abcdef`, { method: 'POST', headers: lls, body })).status, 403);
  t.is((await send(`${url}/${TOKEN}`, { method: 'POST', headers: lls, body })).status, 200);
  t.is(app.received.length, 1);
});

test('a source outside SFD_NOTIFY_ALLOWED_CIDRS is refused; one inside is accepted', async (t) => {
  const app = await startTestApp(t);
  const outside = await relayFor(t, app, { allowedCidrs: '10.0.0.0/8, 2001:db8::/32' });
  t.is((await send(outside.url, { method: 'POST', headers: lls, body: JSON.stringify(event()) })).status, 403);
  const inside = await relayFor(t, app, { allowedCidrs: '10.0.0.0/8, 127.0.0.0/8' });
  t.is((await send(inside.url, { method: 'POST', headers: lls, body: JSON.stringify(event()) })).status, 200);
  t.is(app.received.length, 1);
});

test('only POST, only JSON, only under the size limit, only at the configured path', async (t) => {
  const app = await startTestApp(t);
  const { url } = await relayFor(t, app, { maxBodyBytes: 500 });
  const get = await send(url);
  t.is(get.status, 405);
  t.is(get.headers.allow, 'POST');
  t.is(
    (await send(url, { method: 'POST', headers: { ...lls, 'Content-Type': 'text/plain' }, body: '{}' })).status,
    415,
  );
  t.is(
    (await send(url, { method: 'POST', headers: lls, body: JSON.stringify({ ...event(), pad: 'x'.repeat(600) }) }))
      .status,
    413,
  );
  t.is((await send(url.replace('/notifications', '/other'), { method: 'POST', headers: lls, body: '{}' })).status, 404);
  t.is(app.received.length, 0);
});

test('a request that is not valid HTTP gets the catalog error, and the relay logs it as its own', async (t) => {
  const app = await startTestApp(t);
  const { url, logs } = await relayFor(t, app);
  const raw = await rawExchange(
    Number(new URL(url).port),
    'POST /notifications HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
  );
  t.is(statusOf(raw), 400);
  t.true(raw.includes('{"code":"Sidecar.MalformedRequest"'));
  const traceId = /x-sfd-trace-id: ([0-9a-f]{32})/.exec(raw)?.[1];
  t.like(
    logs.lines().find((l) => l.sidecarTraceId === traceId),
    { listener: 'notifications', errorCode: 'Sidecar.MalformedRequest' },
  );
  t.is(app.received.length, 0);
});

test(
  'the relay, which faces callers outside the pod, applies the caller limits: slow heads and bodies get 408, ' +
    'large heads 431',
  async (t) => {
    const app = await startTestApp(t);
    const { logger } = captureLogs();
    const relay = await startNotifyRelay(relayConfig(app.url), {
      logger,
      metrics: createMetrics(),
      now: Date.now,
      callerLimits: {
        ...DEFAULT_LIMITS,
        maxHeaderBytes: 2048,
        clientHeadersTimeoutMs: 500,
        clientRequestTimeoutMs: 1000,
      },
    });
    t.teardown(() => relay.close(0));
    // A 408 within the client's 8 s of patience can only be the configured limit: Node alone waits 60 s
    // for a head and 300 s for a request, and says nothing when the client gives up first.
    const slowHead = await rawExchange(
      relay.address.port,
      'POST /notifications HTTP/1.1\r\nHost: x\r\nX-Slow: 1',
      8000,
    );
    const slowBody = await rawExchange(
      relay.address.port,
      `POST /notifications HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-SFD-Notification-From: ` +
        `LLS\r\nContent-Length: 100\r\n\r\n{`,
      8000,
    );
    t.is(statusOf(slowHead), 408);
    t.is(statusOf(slowBody), 408);
    t.is(
      statusOf(
        await rawExchange(
          relay.address.port,
          `POST /notifications HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(3000)}\r\n\r\n`,
        ),
      ),
      431,
    );
    t.is(app.received.length, 0);
  },
);

test('every error answer of the relay carries a trace id of its own that its log line carries too', async (t) => {
  const app = await startTestApp(t);
  const { url, logs } = await relayFor(t, app, { maxBodyBytes: 500, timeoutMs: 300 });
  app.behaviour = { status: 500, delayMs: 0 };
  const answers = {
    'Sidecar.MethodNotAllowed': await send(url),
    'Sidecar.BodyTooLarge': await send(url, {
      method: 'POST',
      headers: lls,
      body: JSON.stringify({ ...event(), pad: 'x'.repeat(600) }),
    }),
    'Sidecar.NotificationInvalid': await send(url, { method: 'POST', headers: lls, body: '{not json' }),
    'Sidecar.AppUnavailable': await send(url, { method: 'POST', headers: lls, body: JSON.stringify(event()) }),
  };
  const traceIds = new Set<string>();
  for (const [code, answer] of Object.entries(answers)) {
    t.is(answer.json().code, code);
    const traceId = String(answer.headers['x-sfd-trace-id']);
    t.regex(traceId, /^[0-9a-f]{32}$/, code);
    t.truthy(
      logs.lines().find((l) => l.sidecarTraceId === traceId && l.level === 'warn'),
      `${code}: a warn line with ${traceId}`,
    );
    traceIds.add(traceId);
  }
  t.is(traceIds.size, 4, 'one trace id per answer');
});

test(
  'an invalid event is refused with every problem, ' +
    'counted, logged with its id and kept in the ' +
    'dead-letter file',
  async (t) => {
    const app = await startTestApp(t);
    const dir = mkdtempSync(join(tmpdir(), 'sfd-dead-'));
    const { url, metrics, logs } = await relayFor(t, app, { deadLetterDir: dir });
    const bad = event('ended');
    const body = JSON.stringify({ ...bad, data: { ...bad.data, accessUrl: undefined, ended: undefined } });
    const answer = await send(url, { method: 'POST', headers: lls, body });
    t.is(answer.status, 400);
    t.deepEqual(answer.json(), {
      code: 'Sidecar.NotificationInvalid',
      message: 'The notification does not follow the specification; see problems.',
      problems: [
        'data.ended: is required when status is ended (rule 2)',
        'data.accessUrl: is required when status is ended (rule 2)',
      ],
    });
    t.is((await send(url, { method: 'POST', headers: lls, body: '{not json' })).status, 400);
    t.is(app.received.length, 0);
    t.is(await counted(metrics, 'invalid'), 2);
    t.true(logs.lines().some((l) => l.event === 'notification invalid' && l.notificationId === bad.id));
    const letters = readFileSync(join(dir, DEAD_LETTER_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    t.is(letters.length, 2);
    t.like(letters[0], {
      id: bad.id,
      body,
      problems: [
        'data.ended: is required when status is ended (rule 2)',
        'data.accessUrl: is required when status is ended (rule 2)',
      ],
    });
    t.like(letters[1], { id: null, body: '{not json', problems: ['(body): not valid JSON'] });
  },
);

test(
  'an id the relay cannot hand on as a header (a line break, a character beyond ASCII) is refused as invalid and ' +
    'kept; the relay goes on',
  async (t) => {
    const app = await startTestApp(t);
    const dir = mkdtempSync(join(tmpdir(), 'sfd-dead-'));
    const { url } = await relayFor(t, app, { deadLetterDir: dir });
    const ids = ['evt-1\r\nX-Injected: 1', '通知-1', ' evt-2'];
    for (const id of ids) {
      const answer = await send(url, { method: 'POST', headers: lls, body: JSON.stringify({ ...event(), id }) });
      t.is(answer.status, 400, JSON.stringify(id));
      t.deepEqual(answer.json<{ problems: string[] }>().problems, [
        'id: must be printable ASCII without spaces at either end; the relay hands it to the application as the ' +
          'Idempotency-Key header',
      ]);
    }
    t.is(app.received.length, 0);
    const letters = readFileSync(join(dir, DEAD_LETTER_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string });
    t.deepEqual(
      letters.map((letter) => letter.id),
      ids,
      'each kept whole in the dead-letter file',
    );
    t.is(
      (await send(url, { method: 'POST', headers: lls, body: JSON.stringify(event()) })).status,
      200,
      'the relay still delivers',
    );
  },
);

test(
  'an invalid event the dead-letter file cannot keep (its cap reached) is answered 503 so that the service sends ' +
    'it again',
  async (t) => {
    const app = await startTestApp(t);
    const dir = mkdtempSync(join(tmpdir(), 'sfd-dead-'));
    // Room for one letter of this event (about 1.7 KB with its headers), not for two.
    const { url, metrics, logs } = await relayFor(t, app, { deadLetterDir: dir, deadLetterMaxBytes: 2048 });
    const path = join(dir, DEAD_LETTER_FILE);
    const deadLetters = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        parseExposition(await metrics.registry.metrics())
          .filter((s) => s.name === 'sfd_notification_dead_letters_total')
          .map((s) => [s.labels.result!, s.value]),
      );
    t.deepEqual(await deadLetters(), { kept: 0, not_kept: 0 }, 'both series exist before the first letter');
    const bad = event('ended');
    const body = JSON.stringify({ ...bad, data: { ...bad.data, ended: undefined, note: 'x'.repeat(900) } });
    t.is((await send(url, { method: 'POST', headers: lls, body })).status, 400);
    const keptBytes = statSync(path).size;
    t.true(keptBytes > 1024 && keptBytes <= 2048, `one letter is ${keptBytes} bytes`);

    const refused = await send(url, { method: 'POST', headers: lls, body });
    t.is(refused.status, 503);
    t.deepEqual(refused.json(), {
      code: 'Sidecar.NotificationNotKept',
      message:
        'The notification does not follow the specification and could not be kept in the dead-letter file; send ' +
        'it again later.',
      problems: ['data.ended: is required when status is ended (rule 2)'],
    });
    t.is(statSync(path).size, keptBytes, 'the file never passes its cap');
    t.deepEqual(await deadLetters(), { kept: 1, not_kept: 1 });
    t.true(
      logs
        .lines()
        .some((l) => l.level === 'error' && l.notificationId === bad.id && l.errorCode === 'DEAD_LETTER_FULL'),
    );
    t.is(await counted(metrics, 'invalid'), 2);
    t.is(app.received.length, 0);

    // The operator moves the file away; the service's next attempt is kept.
    renameSync(path, `${path}.1`);
    t.is((await send(url, { method: 'POST', headers: lls, body })).status, 400);
    t.like(JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>, { id: bad.id, body });
  },
);

test('app down, failing or slow: the service gets 503 and the event is not remembered as delivered', async (t) => {
  const app = await startTestApp(t);
  const { url, metrics } = await relayFor(t, app, { timeoutMs: 300 });
  const body = JSON.stringify(event());
  app.behaviour = { status: 500, delayMs: 0 };
  const failing = await send(url, { method: 'POST', headers: lls, body });
  t.is(failing.status, 503);
  t.is(failing.json().code, 'Sidecar.AppUnavailable');
  app.behaviour = { status: 200, delayMs: 1000 };
  t.is((await send(url, { method: 'POST', headers: lls, body })).status, 503);
  app.behaviour = { status: 200, delayMs: 0 };
  t.is((await send(url, { method: 'POST', headers: lls, body })).status, 200, 'a retry after recovery is delivered');
  t.is(await counted(metrics, 'app_error'), 2);
  await app.close();
  t.is((await send(url, { method: 'POST', headers: lls, body: JSON.stringify(event()) })).status, 503, 'app down');
});

test(
  'beyond SFD_NOTIFY_MAX_INFLIGHT notifications in hand, the next is refused with 503 before its body is sent, ' +
    'and taken again once one is answered',
  async (t) => {
    const app = await startTestApp(t);
    const { url, metrics } = await relayFor(t, app, { maxInflight: 2 });
    app.behaviour = { status: 200, delayMs: 600 };
    const held = [1, 2].map(() => send(url, { method: 'POST', headers: lls, body: JSON.stringify(event()) }));
    t.true(await eventually(() => app.received.length === 2), 'two notifications in hand while the app takes its time');

    const refused = await sendExpectingContinue(url, { headers: lls, body: JSON.stringify(event()) });
    t.is(refused.status, 503);
    t.is((JSON.parse(refused.body.toString()) as { code: string }).code, 'Sidecar.Overloaded');
    t.false(refused.bodySent, 'the body was never asked for');
    t.regex(String(refused.headers['x-sfd-trace-id']), /^[0-9a-f]{32}$/);

    t.deepEqual(
      (await Promise.all(held)).map((a) => a.status),
      [200, 200],
    );
    app.behaviour = { status: 200, delayMs: 0 };
    t.is(
      (await send(url, { method: 'POST', headers: lls, body: JSON.stringify(event()) })).status,
      200,
      'taken again once the others were answered',
    );
    t.is(app.received.length, 3, 'the refused notification never reached the app');
    t.is(await counted(metrics, 'refused'), 1);
  },
);

test(
  'an app that answers 101 is an app that did not accept: 503 within SFD_NOTIFY_TIMEOUT_MS, and the id can be ' +
    'delivered later',
  async (t) => {
    // The first connection switches protocols; the ones after answer 200.
    const app = await startFaultyUpstream(t, (socket, index) =>
      onRequestHead(socket, () =>
        socket.write(
          index === 0 ? 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n' : okResponse(),
        ),
      ),
    );
    const { url, logs } = await relayFor(t, { url: `${app.url}/hooks/sfd` } as TestApp, { timeoutMs: 3000 });
    const body = JSON.stringify(event());
    const started = Date.now();
    const answer = await send(url, { method: 'POST', headers: lls, body });
    t.is(answer.status, 503);
    t.is(answer.json().code, 'Sidecar.AppUnavailable');
    t.true(Date.now() - started < 2500, `answered after ${Date.now() - started} ms`);
    t.true(logs.lines().some((l) => l.reason === 'the app switched protocols (101)'));
    const again = await send(url, { method: 'POST', headers: lls, body });
    t.is(again.status, 200, 'the service sending it again gets it delivered');
    t.like(again.json(), { status: 'delivered' });
  },
);

test('SFD_NOTIFY_TIMEOUT_MS bounds every delivery, also those waiting for a connection to a hung app', async (t) => {
  const app = await startTestApp(t);
  const { url } = await relayFor(t, app, { timeoutMs: 3000 });
  app.behaviour = { status: 200, delayMs: 20_000 };
  const started = Date.now();
  const answers = await Promise.all(
    // 40 deliveries through the relay's 16 connections to the app: waves of 16, 16 and 8. A timeout that
    // started only once a connection was free would answer the last wave after 9000 ms or more (timers
    // are never early), so 8500 tells the two apart with five seconds to spare on a busy machine.
    Array.from({ length: 40 }, async () => {
      const answer = await send(url, { method: 'POST', headers: lls, body: JSON.stringify(event()) });
      return { status: answer.status, ms: Date.now() - started };
    }),
  );
  t.deepEqual(new Set(answers.map((a) => a.status)), new Set([503]));
  const slowest = Math.max(...answers.map((a) => a.ms));
  t.true(slowest < 8500, `the slowest answer took ${slowest} ms (a timeout per connection: 9000 or more)`);
});

test('a repeated id is acknowledged without a second delivery, also when the repeats arrive together', async (t) => {
  const app = await startTestApp(t);
  const { url, metrics } = await relayFor(t, app);
  const body = JSON.stringify(event());
  t.is((await send(url, { method: 'POST', headers: lls, body })).status, 200);
  const again = await send(url, { method: 'POST', headers: lls, body });
  t.is(again.status, 200);
  t.like(again.json(), { status: 'duplicate' });
  app.behaviour = { status: 200, delayMs: 200 };
  const together = JSON.stringify(event());
  const answers = await Promise.all([1, 2, 3].map(() => send(url, { method: 'POST', headers: lls, body: together })));
  t.deepEqual(
    answers.map((a) => a.status),
    [200, 200, 200],
  );
  t.is(app.received.length, 2);
  t.is(await counted(metrics, 'duplicate'), 3);
});

test(
  'hop-by-hop headers and those Connection names stay ' + 'behind; such a notification is delivered normally',
  async (t) => {
    const app = await startTestApp(t);
    const { url } = await relayFor(t, app);
    const body = JSON.stringify(event());
    // Raw: Node's own client refuses to send a Trailer header with a Content-Length.
    const head = [
      'POST /notifications HTTP/1.1',
      'Host: relay',
      'Content-Type: application/json',
      'X-SFD-Notification-From: LLS',
      'Trailer: X-Checksum',
      'Proxy-Authorization: Basic c2VydmljZTpzZWNyZXQ=',
      'Connection: keep-alive, X-Per-Hop',
      'X-Per-Hop: dropped',
      'TE: trailers',
      'X-Kept: kept',
      `Content-Length: ${Buffer.byteLength(body)}`,
    ].join('\r\n');
    // The relay keeps the connection open: the exchange ends with the whole answer, or 30 s without one.
    const { raw } = await rawExchangeEnding(
      Number(new URL(url).port),
      `${head}\r\n\r\n${body}`,
      30_000,
      oneWholeResponse,
    );
    t.is(statusOf(raw), 200, raw);
    t.is(app.received.length, 1);
    const headers = app.received[0]!.headers;
    for (const name of ['trailer', 'proxy-authorization', 'x-per-hop', 'te']) t.is(headers[name], undefined, name);
    t.is(headers['x-kept'], 'kept');
  },
);
