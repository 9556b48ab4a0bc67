// Requests refused before the sidecar's handler sees them: those Node's HTTP parser refuses (not valid
// HTTP, a head over SFD_MAX_HEADER_BYTES, a head or body too slow) and CONNECT (no tunnels). Each is
// answered with the catalog's error and a trace id, logged with that trace id and Node's code (never a
// byte of the request), and counted.
import net from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { SIDECAR_ERRORS } from '../../src/errors.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { rawExchange, send, statusOf } from '../helpers/http.js';
import { TEST_SECRET } from '../helpers/secrets.js';
import { IMPATIENT_LIMITS, startStack } from '../helpers/stack.js';

/** The answers in a raw exchange, in order: status, headers (lowercase names) and body, by Content-Length. */
type RawAnswer = { status: number; headers: Record<string, string>; body: string };

function answersIn(raw: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0); // none (Node's bare answers): no body
    answers.push({ status: statusOf(statusLine!), headers, body: rest.slice(headEnd + 4, headEnd + 4 + length) });
    rest = rest.slice(headEnd + 4 + length);
  }
  if (rest !== '') throw new Error(`unparsed bytes after the answers: ${JSON.stringify(rest.slice(0, 80))}`);
  return answers;
}

type Refused = 'MalformedRequest' | 'HeadersTooLarge' | 'RequestTimeout';

/** The answer is the catalog's, its trace id is in a log line with Node's code, and the connection closes. */
function assertRefusal(
  t: ExecutionContext,
  answer: RawAnswer,
  name: Refused,
  logs: { lines: () => Record<string, unknown>[] },
  parserCode: string,
): void {
  const spec = SIDECAR_ERRORS[name];
  t.is(answer.status, spec.status);
  t.deepEqual(JSON.parse(answer.body), { code: spec.code, message: spec.message });
  t.is(answer.headers['content-type'], 'application/json;charset=UTF-8');
  t.is(answer.headers.connection, 'close');
  const traceId = answer.headers['x-sfd-trace-id'];
  t.regex(String(traceId), /^[0-9a-f]{32}$/);
  const line = logs.lines().find((l) => l.sidecarTraceId === traceId);
  t.like(line, {
    level: 'warn',
    event: 'request refused by the HTTP parser',
    listener: 'signing',
    status: spec.status,
    errorCode: spec.code,
    parserCode,
  });
}

async function sidecarErrors(adminUrl: string, code: string): Promise<number | undefined> {
  return valueOf(parseExposition((await send(`${adminUrl}/metrics`)).body.toString()), 'sfd_sidecar_errors_total', {
    code,
  });
}

test(
  'an unknown method is answered 400 ' + 'Sidecar.MalformedRequest, logged with its parser ' + 'code and counted',
  async (t) => {
    const { sidecar, adminUrl, logs, emulator } = await startStack(t);
    const [answer, ...more] = answersIn(
      await rawExchange(sidecar.proxyAddress.port, 'FROBNICATE /v1.1/customer/12345 HTTP/1.1\r\nHost: x\r\n\r\n'),
    );
    assertRefusal(t, answer!, 'MalformedRequest', logs, 'HPE_INVALID_METHOD');
    t.is(more.length, 0);
    t.is(await sidecarErrors(adminUrl, 'Sidecar.MalformedRequest'), 1);
    t.is(emulator.state.accepted.length, 0);
  },
);

test(
  'an HTTP/1.1 request without Host is answered 400 Sidecar.MalformedRequest (RFC 9112 §3.2), logged and ' +
    'counted, not with a bare 400',
  async (t) => {
    const { sidecar, adminUrl, logs, emulator } = await startStack(t);
    const [answer, ...more] = answersIn(
      await rawExchange(sidecar.proxyAddress.port, 'GET /v1.1/customer/12345 HTTP/1.1\r\n\r\n'),
    );
    assertRefusal(t, answer!, 'MalformedRequest', logs, 'MISSING_HOST_HEADER');
    t.is(more.length, 0);
    t.is(await sidecarErrors(adminUrl, 'Sidecar.MalformedRequest'), 1);
    t.is(emulator.state.accepted.length, 0);
    const http10 = answersIn(await rawExchange(sidecar.proxyAddress.port, 'GET /v1.1/customer/12345 HTTP/1.0\r\n\r\n'));
    t.is(http10[0]?.status, 200, 'HTTP/1.0 has no Host to require');
  },
);

test(
  'an oversized head is answered 431 ' +
    'Sidecar.HeadersTooLarge, and none of its bytes reach ' +
    'the log or the answer',
  async (t) => {
    const { sidecar, adminUrl, logs } = await startStack(t);
    const raw = await rawExchange(
      sidecar.proxyAddress.port,
      `GET /x HTTP/1.1\r\nHost: x\r\nX-Api-Secret: ${TEST_SECRET}\r\nX-Big: ${'q'.repeat(20_000)}\r\n\r\n`,
    );
    const [answer] = answersIn(raw);
    assertRefusal(t, answer!, 'HeadersTooLarge', logs, 'HPE_HEADER_OVERFLOW');
    t.false(logs.text().includes(TEST_SECRET));
    t.false(logs.text().includes('qqqq'));
    t.false(raw.includes(TEST_SECRET));
    t.is(await sidecarErrors(adminUrl, 'Sidecar.HeadersTooLarge'), 1);
  },
);

test('a head slower than SFD_CLIENT_HEADERS_TIMEOUT_MS is answered 408 Sidecar.RequestTimeout', async (t) => {
  const { sidecar, adminUrl, logs } = await startStack(t, { sidecar: { limits: IMPATIENT_LIMITS } });
  const [answer] = answersIn(
    await rawExchange(sidecar.proxyAddress.port, 'GET /x HTTP/1.1\r\nHost: x\r\nX-Slow: 1', 8000),
  );
  assertRefusal(t, answer!, 'RequestTimeout', logs, 'ERR_HTTP_REQUEST_TIMEOUT');
  t.is(await sidecarErrors(adminUrl, 'Sidecar.RequestTimeout'), 1);
});

test(
  'a body slower than SFD_CLIENT_REQUEST_TIMEOUT_MS ' + 'is answered 408, and the request line records 408',
  async (t) => {
    const { sidecar, logs, emulator } = await startStack(t, { sidecar: { limits: IMPATIENT_LIMITS } });
    const [answer] = answersIn(
      await rawExchange(
        sidecar.proxyAddress.port,
        'POST /_emulator/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly-a-few-bytes',
        8000,
      ),
    );
    assertRefusal(t, answer!, 'RequestTimeout', logs, 'ERR_HTTP_REQUEST_TIMEOUT');
    t.like(
      logs.lines().find((l) => l.event === 'request'),
      { method: 'POST', path: '/_emulator/echo', status: 408 },
    );
    t.is(emulator.state.accepted.length, 0);
  },
);

test(
  'on a kept-alive connection, a malformed request after an answered one is answered too (Node alone would only ' +
    'close)',
  async (t) => {
    const { sidecar, logs } = await startStack(t);
    const socket = net.connect(sidecar.proxyAddress.port, '127.0.0.1');
    t.teardown(() => socket.destroy());
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.write('GET /v1.1/customer/12345 HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!received.includes('Demo Customer')) await new Promise((resolve) => setTimeout(resolve, 10));
    socket.write('GET /x HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n');
    await new Promise((resolve) => socket.on('close', resolve));
    const answers = answersIn(received);
    t.deepEqual(
      answers.map((a) => a.status),
      [200, 400],
    );
    assertRefusal(t, answers[1]!, 'MalformedRequest', logs, 'HPE_INVALID_HEADER_TOKEN');
  },
);

test('a malformed request pipelined behind a good one is answered after it, in order', async (t) => {
  const { sidecar, logs, emulator } = await startStack(t);
  const raw = await rawExchange(
    sidecar.proxyAddress.port,
    'GET /v1.1/customer/12345 HTTP/1.1\r\nHost: x\r\n\r\nNOT-HTTP\r\n\r\n',
    3000,
  );
  const answers = answersIn(raw);
  t.deepEqual(
    answers.map((a) => a.status),
    [200, 400],
  );
  t.true(answers[0]!.body.includes('Demo Customer'));
  assertRefusal(t, answers[1]!, 'MalformedRequest', logs, 'HPE_INVALID_METHOD');
  t.is(emulator.state.accepted.length, 1);
});

test(
  'a CONNECT pipelined behind a request is answered after it, 405 Sidecar.MethodNotAllowed, logged and counted; ' +
    'nothing is tunnelled',
  async (t) => {
    const { sidecar, adminUrl, logs, emulator } = await startStack(t);
    const raw = await rawExchange(
      sidecar.proxyAddress.port,
      'GET /v1.1/customer/12345 HTTP/1.1\r\nHost: x\r\n\r\nCONNECT evil.example.com:443 HTTP/1.1\r\nHost: ' +
        'evil.example.com:443\r\n\r\n',
      3000,
    );
    const answers = answersIn(raw);
    t.deepEqual(
      answers.map((a) => a.status),
      [200, 405],
    );
    t.true(answers[0]!.body.includes('Demo Customer'));
    const refusal = answers[1]!;
    const spec = SIDECAR_ERRORS.MethodNotAllowed;
    t.deepEqual(JSON.parse(refusal.body), { code: spec.code, message: spec.message });
    t.is(refusal.headers['content-type'], 'application/json;charset=UTF-8');
    t.is(refusal.headers.connection, 'close');
    t.is(
      refusal.headers.allow,
      'GET, HEAD, POST, PUT, PATCH, DELETE',
      'a 405 names the methods the listener takes (RFC 9110)',
    );
    const traceId = refusal.headers['x-sfd-trace-id'];
    t.regex(String(traceId), /^[0-9a-f]{32}$/);
    t.like(
      logs.lines().find((l) => l.sidecarTraceId === traceId),
      {
        level: 'warn',
        event: 'CONNECT refused: no listener opens tunnels',
        listener: 'signing',
        status: 405,
        errorCode: spec.code,
      },
    );
    t.false(logs.text().includes('evil.example.com'), 'the target of the CONNECT is not logged');
    t.is(await sidecarErrors(adminUrl, spec.code), 1);
    t.is(emulator.state.accepted.length, 1, 'only the GET reached the upstream');
  },
);

test('a caller that hangs up in the middle of a head is neither answered, logged nor counted', async (t) => {
  const { sidecar, adminUrl, logs } = await startStack(t);
  const socket = net.connect(sidecar.proxyAddress.port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => {});
  await new Promise((resolve) => socket.on('connect', resolve));
  socket.end('GET /x HTTP/1.1\r\nHost: x\r\nX-Half: ');
  // The sidecar closes the connection only after it has handled what it read: a log line or a count
  // for it would already be there.
  await new Promise((resolve) => socket.on('close', resolve));
  t.is(received, '');
  t.is(logs.lines().filter((l) => l.event === 'request refused by the HTTP parser').length, 0);
  t.is(await sidecarErrors(adminUrl, 'Sidecar.MalformedRequest'), undefined);
});

test(
  'the admin listener answers a malformed request with ' + 'the catalog error too, logged as the admin listener',
  async (t) => {
    const { sidecar, adminUrl, logs } = await startStack(t);
    const [answer] = answersIn(
      await rawExchange(sidecar.adminAddress.port, 'BREW /metrics HTTP/1.1\r\nHost: x\r\n\r\n'),
    );
    t.is(answer!.status, 400);
    t.is((JSON.parse(answer!.body) as { code: string }).code, 'Sidecar.MalformedRequest');
    t.like(
      logs.lines().find((l) => l.sidecarTraceId === answer!.headers['x-sfd-trace-id']),
      { listener: 'admin', parserCode: 'HPE_INVALID_METHOD' },
    );
    t.is(
      await sidecarErrors(adminUrl, 'Sidecar.MalformedRequest'),
      undefined,
      'sfd_sidecar_errors_total counts the signing listener only',
    );
  },
);

test(
  'the admin listener applies the same caller limits: a ' + 'slow head is cut after SFD_CLIENT_HEADERS_TIMEOUT_MS',
  async (t) => {
    const { sidecar, logs } = await startStack(t, { sidecar: { limits: IMPATIENT_LIMITS } });
    const [answer] = answersIn(
      await rawExchange(sidecar.adminAddress.port, 'GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: 1', 8000),
    );
    t.is(answer!.status, 408, "within the client's 8 s of patience: Node alone waits 60 s");
    t.like(
      logs.lines().find((l) => l.sidecarTraceId === answer!.headers['x-sfd-trace-id']),
      { listener: 'admin', errorCode: 'Sidecar.RequestTimeout' },
    );
  },
);
