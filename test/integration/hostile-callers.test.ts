// Hostile or broken callers: each attack gets a clear error or safe handling, and the sidecar goes on.
import test from 'ava';
import { rawExchange, send, statusOf } from '../helpers/http.js';
import { startSlowUpstream } from '../helpers/slow-upstream.js';
import { IMPATIENT_LIMITS, startStack, startTestSidecar, toUpstream } from '../helpers/stack.js';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';

test('oversized-headers are refused with 431', async (t) => {
  const { sidecar } = await startStack(t);
  const raw = await rawExchange(
    sidecar.proxyAddress.port,
    `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
  );
  t.is(statusOf(raw), 431);
});

test('slow-headers (slowloris) are cut after SFD_CLIENT_HEADERS_TIMEOUT_MS', async (t) => {
  const { sidecar } = await startStack(t, { sidecar: { limits: IMPATIENT_LIMITS } });
  const raw = await rawExchange(sidecar.proxyAddress.port, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1', 8000);
  t.is(statusOf(raw), 408, "within the client's 8 s of patience: Node alone waits 60 s");
});

test('conflicting Content-Length and Transfer-Encoding is refused with 400', async (t) => {
  const { sidecar, emulator } = await startStack(t);
  const raw = await rawExchange(
    sidecar.proxyAddress.port,
    'POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  );
  t.is(statusOf(raw), 400);
  t.is(emulator.state.accepted.length, 0);
});

for (const [name, header] of [
  ['crlf-in-header-value', 'X-SFD-Zone: a\rX-Injected: 1'],
  ['nul-in-header-value', 'X-SFD-Zone: a\u0000b'],
] as const) {
  test(`${name} is refused with 400`, async (t) => {
    const { sidecar, emulator } = await startStack(t);
    const raw = await rawExchange(sidecar.proxyAddress.port, `GET /x HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`);
    t.is(statusOf(raw), 400);
    t.is(emulator.state.accepted.length, 0);
  });
}

test('connect-method is refused with 405, unknown methods with 400', async (t) => {
  const { sidecar } = await startStack(t);
  const connect = await rawExchange(
    sidecar.proxyAddress.port,
    'CONNECT evil.example.com:443 HTTP/1.1\r\nHost: evil.example.com:443\r\n\r\n',
  );
  t.is(statusOf(connect), 405);
  t.true(connect.includes('Sidecar.MethodNotAllowed'));
  const unknown = await rawExchange(sidecar.proxyAddress.port, 'FROBNICATE / HTTP/1.1\r\nHost: x\r\n\r\n');
  t.is(statusOf(unknown), 400);
});

for (const path of ['/api/../admin', '/%2e%2e/admin', '/v1.1/..%2F..%2Fadmin', '/a/.%2e/b', '/a/./b']) {
  test(`dot-segment-escape ${path} is refused with 400 and never forwarded`, async (t) => {
    const { sidecar, emulator } = await startStack(t, { upstreamPath: '/_emulator/echo' });
    const raw = await rawExchange(
      sidecar.proxyAddress.port,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    t.is(statusOf(raw), 400);
    t.true(raw.includes('Sidecar.BadRequest'));
    t.is(emulator.state.accepted.length, 0);
  });
}

test('hop-by-hop abuse: Connection naming X-SFD-Date cannot remove the signed date', async (t) => {
  const { proxyUrl } = await startStack(t);
  const answer = await send(`${proxyUrl}/v1.1/customer/12345`, {
    headers: { Connection: 'X-SFD-Date, X-SFD-Nonce, Authorization, Host' },
  });
  t.is(answer.status, 200);
});

test('overloaded: beyond SFD_MAX_INFLIGHT requests get 503 Sidecar.Overloaded at once', async (t) => {
  const slow = await startSlowUpstream(t, 400);
  const { proxyUrl } = await startTestSidecar(t, {
    defaultUpstream: toUpstream(slow.url),
    limits: { ...DEFAULT_LIMITS, upstreamMaxSockets: 8, upstreamRetries: 0, retryMethods: [], maxInflight: 2 },
  });
  const answers = await Promise.all([1, 2, 3, 4].map(() => send(`${proxyUrl}/x`)));
  const statuses = answers.map((a) => a.status).sort();
  t.deepEqual(statuses, [200, 200, 503, 503]);
  t.is(answers.find((a) => a.status === 503)!.json().code, 'Sidecar.Overloaded');
  t.is((await send(`${proxyUrl}/x`)).status, 200, 'served again once the load is gone');
});

test('slow-body: a request body slower than SFD_CLIENT_REQUEST_TIMEOUT_MS is cut with 408', async (t) => {
  const { sidecar, emulator } = await startStack(t, { sidecar: { limits: IMPATIENT_LIMITS } });
  const raw = await rawExchange(
    sidecar.proxyAddress.port,
    'POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly-a-few-bytes',
    8000,
  );
  t.is(statusOf(raw), 408, "within the client's 8 s of patience: Node alone waits 300 s");
  t.is(emulator.state.accepted.length, 0);
});
