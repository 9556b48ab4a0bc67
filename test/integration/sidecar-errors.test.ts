// Each of the sidecar's own errors: the catalog code and status, the upstream's error shape, a trace
// id of the sidecar's own that is also in the log line, and no internal error text.
import net from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { SIDECAR_ERRORS } from '../../src/errors.js';
import { createKeyRing } from '../../src/keys/key-ring.js';
import { rawExchange, send, sendExpectingContinue, statusOf } from '../helpers/http.js';
import { REFUSING_ADDRESS } from '../helpers/faulty-upstream.js';
import { TEST_SECRET } from '../helpers/secrets.js';
import { startStack, startTestSidecar, toUpstream } from '../helpers/stack.js';

const catalogMessages = new Set(Object.values(SIDECAR_ERRORS).map((e) => e.message));

function assertCatalogAnswer(
  t: ExecutionContext,
  answer: { status: number; headers: Record<string, unknown>; json: () => Record<string, unknown> },
  name: keyof typeof SIDECAR_ERRORS,
  fields: Record<string, unknown> = {},
): void {
  const spec = SIDECAR_ERRORS[name];
  t.is(answer.status, spec.status);
  t.deepEqual(answer.json(), { code: spec.code, message: spec.message, ...fields });
  t.true(catalogMessages.has(spec.message));
  t.regex(String(answer.headers['x-sfd-trace-id']), /^[0-9a-f]{32}$/);
}

test('a body over SFD_MAX_BODY_BYTES with Content-Length is refused with 413 before it is read', async (t) => {
  const { proxyUrl, logs } = await startStack(t, { sidecar: { maxBodyBytes: 1000 } });
  const answer = await send(`${proxyUrl}/_emulator/echo`, { method: 'POST', body: 'x'.repeat(1001) });
  assertCatalogAnswer(t, answer, 'BodyTooLarge');
  const line = logs.lines().find((l) => l.event === 'request');
  t.like(line, { status: 413, errorCode: 'Sidecar.BodyTooLarge', sidecarTraceId: answer.headers['x-sfd-trace-id'] });
});

test(
  'a client that waits for 100 Continue is asked for a body the sidecar will read, and refused without being ' +
    'asked for one it will not',
  async (t) => {
    const { proxyUrl, adminUrl } = await startStack(t, { sidecar: { maxBodyBytes: 1000 } });
    const accepted = await sendExpectingContinue(`${proxyUrl}/_emulator/echo`, { body: 'x'.repeat(1000) });
    t.like(accepted, { continued: true, bodySent: true, status: 200 });
    t.is(
      Buffer.from((JSON.parse(accepted.body.toString()) as { bodyBase64: string }).bodyBase64, 'base64').toString(),
      'x'.repeat(1000),
    );
    // Each refusal comes before a byte of the body, and closes the connection: the client may still send
    // the body it held back, which must not be read as a next request.
    const tooLarge = await sendExpectingContinue(`${proxyUrl}/_emulator/echo`, { body: 'x'.repeat(1001) });
    t.like(tooLarge, { continued: false, bodySent: false, status: 413, headers: { connection: 'close' } });
    t.is((JSON.parse(tooLarge.body.toString()) as { code: string }).code, 'Sidecar.BodyTooLarge');
    const escape = await sendExpectingContinue(`${proxyUrl}/v1.1/../admin`, { body: '{}' });
    t.like(escape, { continued: false, bodySent: false, status: 400, headers: { connection: 'close' } });
    const admin = await sendExpectingContinue(`${adminUrl}/healthz`, { body: '{}' });
    t.like(admin, { continued: false, bodySent: false, status: 405, headers: { connection: 'close' } });
  },
);

test('a chunked body that grows over the limit is refused with 413', async (t) => {
  const { sidecar } = await startStack(t, { sidecar: { maxBodyBytes: 1000 } });
  const chunk = 'y'.repeat(600);
  const raw = await rawExchange(
    sidecar.proxyAddress.port,
    `POST /_emulator/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ` +
      `chunked\r\n\r\n258\r\n${chunk}\r\n258\r\n${chunk}\r\n0\r\n\r\n`,
  );
  t.is(statusOf(raw), 413);
  t.true(raw.includes('Sidecar.BodyTooLarge'));
});

test('a body at the limit exactly goes through', async (t) => {
  const { proxyUrl } = await startStack(t, { sidecar: { maxBodyBytes: 1000 } });
  const answer = await send(`${proxyUrl}/_emulator/echo`, { method: 'POST', body: 'z'.repeat(1000) });
  t.is(answer.status, 200);
});

test('an absolute-form request naming the upstream is accepted', async (t) => {
  const { sidecar, emulator } = await startStack(t);
  const host = new URL(emulator.url).host;
  const raw = await rawExchange(
    sidecar.proxyAddress.port,
    `GET http://${host}/v1.1/customer/12345 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
  );
  t.is(statusOf(raw), 200);
  t.true(raw.includes('"name":"Demo Customer"'));
});

for (const [title, authority] of [
  ['another host', 'evil.example.com'],
  ['a userinfo trick', '127.0.0.1@evil.example.com'],
  ['the upstream host on another port', '127.0.0.1:1'],
] as const) {
  test(`an absolute-form request naming ${title} is refused with 403 and never forwarded`, async (t) => {
    const { sidecar, logs } = await startStack(t);
    const raw = await rawExchange(
      sidecar.proxyAddress.port,
      `GET http://${authority}/v1.1/customer/12345 HTTP/1.1\r\nHost: evil.example.com\r\nConnection: close\r\n\r\n`,
    );
    t.is(statusOf(raw), 403);
    t.true(raw.includes('"code":"Sidecar.ForbiddenTarget"'));
    t.false(logs.lines().some((l) => typeof l.upstreamTraceId === 'string'));
  });
}

test('an asterisk-form request is a bad request', async (t) => {
  const { sidecar } = await startStack(t);
  const raw = await rawExchange(
    sidecar.proxyAddress.port,
    'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  );
  t.is(statusOf(raw), 400);
  t.true(raw.includes('"code":"Sidecar.BadRequest"'));
});

test('an upstream that refuses connections gives 502 Sidecar.UpstreamUnreachable', async (t) => {
  const { port } = REFUSING_ADDRESS;
  const { proxyUrl, logs } = await startTestSidecar(t, { defaultUpstream: toUpstream(`http://127.0.0.1:${port}`) });
  const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
  assertCatalogAnswer(t, answer, 'UpstreamUnreachable');
  t.false(answer.body.toString().includes('ECONNREFUSED'));
  t.true(logs.text().includes('ECONNREFUSED'));
});

test('an upstream that never answers gives 504 Sidecar.UpstreamTimeout after SFD_UPSTREAM_TIMEOUT_MS', async (t) => {
  const silent = net.createServer((socket) => socket.on('data', () => undefined));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    silent.close();
  });
  const port = (silent.address() as net.AddressInfo).port;
  const { proxyUrl } = await startTestSidecar(t, {
    defaultUpstream: toUpstream(`http://127.0.0.1:${port}`),
    upstreamTimeoutMs: 200,
  });
  const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
  assertCatalogAnswer(t, answer, 'UpstreamTimeout');
});

test('with no usable key, requests get 503 Sidecar.NotReady and /readyz says why', async (t) => {
  const { proxyUrl, adminUrl } = await startStack(t, { sidecar: { ring: createKeyRing(null, null) } });
  // The answer names the cause, as /readyz does.
  assertCatalogAnswer(t, await send(`${proxyUrl}/v1.1/customer/12345`), 'NotReady', {
    reason: 'no key store has loaded yet',
  });
  const ready = await send(`${adminUrl}/readyz`);
  t.is(ready.status, 503);
  t.like(ready.json(), { status: 'not ready', reasons: ['no key store has loaded yet'] });
  t.is((await send(`${adminUrl}/healthz`)).status, 200);
});

test('/readyz is 200 when the listener is bound and a key is usable', async (t) => {
  const { adminUrl } = await startStack(t);
  const ready = await send(`${adminUrl}/readyz`);
  t.is(ready.status, 200);
  t.like(ready.json(), { status: 'ready' });
});

test(
  'the admin listener answers another path 404 and another method 405 (Allow: GET, HEAD), each with a trace id ' +
    'in a warn line',
  async (t) => {
    const { adminUrl, logs } = await startStack(t);
    const cases = [
      { answer: await send(`${adminUrl}/metricz`), name: 'NotFound', method: 'GET', path: '/metricz' },
      {
        answer: await send(`${adminUrl}/metrics`, { method: 'POST', body: '' }),
        name: 'MethodNotAllowed',
        method: 'POST',
        path: '/metrics',
      },
    ] as const;
    for (const { answer, name, method, path } of cases) {
      assertCatalogAnswer(t, answer, name);
      t.like(
        logs.lines().find((l) => l.sidecarTraceId === answer.headers['x-sfd-trace-id']),
        { level: 'warn', event: 'admin request refused', method, path, errorCode: SIDECAR_ERRORS[name].code },
      );
    }
    t.is(cases[0].answer.headers.allow, undefined);
    t.is(cases[1].answer.headers.allow, 'GET, HEAD');
    t.is((await send(`${adminUrl}/metrics`, { method: 'HEAD' })).status, 200, 'HEAD is answered as it says');
  },
);

test('no error body or log line carries the secret', async (t) => {
  const { proxyUrl, logs } = await startStack(t, { sidecar: { maxBodyBytes: 10 } });
  const answer = await send(`${proxyUrl}/x`, { method: 'POST', body: TEST_SECRET });
  t.is(answer.status, 413);
  t.false(answer.body.toString().includes(TEST_SECRET));
  t.false(logs.text().includes(TEST_SECRET));
});
