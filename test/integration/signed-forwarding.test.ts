// The sidecar in front of the verifying emulator: every method, every signature form, bytes kept,
// custom headers signed, the caller's own signature replaced, the upstream's answer passed back.
import http from 'node:http';
import test from 'ava';
import { V2_STRING_SHAPES, type SigningOptions } from '../../src/signing/types.js';
import { send } from '../helpers/http.js';
import { TEST_SECRET } from '../helpers/secrets.js';
import { startStack } from '../helpers/stack.js';

interface Echo {
  method: string;
  target: string;
  rawHeaders: string[];
  bodyBase64: string;
}

/** Header values the emulator received, by lowercase name. */
function received(echo: Echo, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < echo.rawHeaders.length; i += 2)
    if (echo.rawHeaders[i]!.toLowerCase() === name) values.push(echo.rawHeaders[i + 1]!);
  return values;
}

test('a GET for a customer comes back signed, verified and unchanged, with the upstream trace id', async (t) => {
  const { proxyUrl, logs } = await startStack(t);
  const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
  t.is(answer.status, 200);
  t.is(answer.headers['content-type'], 'application/json;charset=UTF-8');
  t.like(answer.json(), { id: 12345, name: 'Demo Customer' });
  const traceId = answer.headers['x-sfd-trace-id'];
  t.regex(String(traceId), /^[0-9a-f]{32}$/);
  const line = logs.lines().find((l) => l.event === 'request');
  t.like(line, {
    method: 'GET',
    path: '/v1.1/customer/12345',
    status: 200,
    upstreamTraceId: traceId,
    accessKeyId: 'AKTEST000000001',
  });
});

const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
for (const method of methods) {
  for (const withQuery of [false, true]) {
    // A GET with a query signs the query in the body's place: its body would travel unsigned, and is
    // refused instead (unsigned-body.test.ts).
    for (const withBody of method === 'HEAD' || (method === 'GET' && withQuery) ? [false] : [false, true]) {
      test(
        `${method}${withQuery ? ' with query' : ''}${withBody ? ' with body' : ''} is forwarded byte for byte ` +
          `and verified`,
        async (t) => {
          const { proxyUrl, emulator } = await startStack(t);
          const target = `/_emulator/echo/items/7${withQuery ? '?b=2&a=%20x&empty=' : ''}`;
          const body = withBody ? '{"name": "caf\u00e9",  "n" : 1}' : undefined;
          const agent = new http.Agent({ keepAlive: true });
          t.teardown(() => agent.destroy());
          const answer = await send(`${proxyUrl}${target}`, {
            method,
            body,
            headers: body ? { 'content-type': 'text/plain' } : {},
            agent,
          });
          t.is(answer.status, 200, answer.body.toString());
          t.is(emulator.state.accepted.length, 1, 'the emulator verified and answered it');
          t.regex(String(answer.headers['x-sfd-trace-id']), /^[0-9a-f]{32}$/, "the answer is the emulator's");
          // A second request on the same keep-alive connection is answered as well.
          t.is((await send(`${proxyUrl}${target}`, { method, body, agent })).status, 200);
          if (method === 'HEAD') return;
          const echo = answer.json<Echo>();
          t.is(echo.method, method);
          t.is(echo.target, target);
          t.is(Buffer.from(echo.bodyBase64, 'base64').toString('utf8'), body ?? '');
          t.deepEqual(received(echo, 'content-type'), ['application/json; charset=utf-8']);
          t.deepEqual(received(echo, 'x-sfd-signature-version'), ['2']);
          t.is(received(echo, 'x-sfd-date').length, 1);
          t.is(received(echo, 'x-sfd-nonce').length, 1);
        },
      );
    }
  }
}

const forms: SigningOptions[] = [
  { signatureVersion: '1', v2StringShape: 'spec', queryPlacement: 'body' },
  { signatureVersion: '1', v2StringShape: 'spec', queryPlacement: 'uri' },
  ...V2_STRING_SHAPES.flatMap((shape) => [
    { signatureVersion: '2' as const, v2StringShape: shape, queryPlacement: 'body' as const },
    { signatureVersion: '2' as const, v2StringShape: shape, queryPlacement: 'uri' as const },
  ]),
];
for (const form of forms) {
  const name =
    form.signatureVersion === '1'
      ? `scheme 1, placement ${form.queryPlacement}`
      : `scheme 2 ${form.v2StringShape}, placement ${form.queryPlacement}`;
  test(`${name}: the emulator accepts a GET with a query, a POST with a body and a GET with a {} body`, async (t) => {
    const { proxyUrl } = await startStack(t, { signing: form });
    const get = await send(`${proxyUrl}/v1.2/customerChildren/12345?page=2&size=10`, {
      headers: { 'X-SFD-FZone': 'hk' },
    });
    t.is(get.status, 200, get.body.toString());
    t.is(get.json<unknown[]>().length, 2);
    const post = await send(`${proxyUrl}/cdn/v1.0/services/1001/rateLimit?dry=1`, {
      method: 'POST',
      body: '{"timeWindow": 10, "requestLimit": 20}',
    });
    t.is(post.status, 200, post.body.toString());
    const read = await send(`${proxyUrl}/cdn/v1.0/services/1001/rateLimit`, { body: '{}' });
    t.deepEqual(read.json(), { timeWindow: 10, requestLimit: 20, ignoreUrlPath: true, ignoreQueryString: true });
    if (form.signatureVersion === '1') {
      const echo = (await send(`${proxyUrl}/_emulator/echo`)).json<Echo>();
      t.deepEqual(received(echo, 'x-sfd-signature-version'), []);
    }
  });
}

test('a sidecar signing another shape than the gateway expects gets the gateway 401 passed back', async (t) => {
  const { proxyUrl, logs } = await startStack(t, {
    signing: { v2StringShape: 'spec' },
    emulatorForm: { shape: 'no-extra-lf' },
  });
  const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
  t.is(answer.status, 401);
  t.is(answer.json().code, 'Signature.NotMatch');
  t.regex(String(answer.headers['x-sfd-trace-id']), /^[0-9a-f]{32}$/);
  t.like(
    logs.lines().find((l) => l.event === 'request'),
    { status: 401 },
  );
});

test('upstream 400 answers with their documented codes pass through unchanged', async (t) => {
  const { proxyUrl } = await startStack(t);
  const unknown = await send(`${proxyUrl}/cdn/v1.0/services/2001/rateLimit`);
  t.is(unknown.status, 400);
  t.is(unknown.json().code, 'ServiceId.IdPermission');
  const malformed = await send(`${proxyUrl}/cdn/v1.0/services/abc/rateLimit`, { method: 'DELETE' });
  t.is(malformed.json().code, 'InvalidService.IdIncorrect');
  const badWindow = await send(`${proxyUrl}/cdn/v1.0/services/1001/rateLimit`, {
    method: 'POST',
    body: '{"timeWindow": 0, "requestLimit": 5}',
  });
  t.is(badWindow.json().code, 'InvalidRateLimit.TimeWindow');
});

test('path prefix, double slashes, encoded characters and the raw query are kept byte for byte', async (t) => {
  const { proxyUrl } = await startStack(t, { upstreamPath: '/_emulator/echo/base/' });
  const target = '/a//b/%2F/%7e/..b/x?q=%20x&&z=%E6%9D%B1&q=2';
  const echo = (await send(`${proxyUrl}${target}`)).json<Echo>();
  t.is(echo.target, `/_emulator/echo/base${target}`);
});

test('custom X-SFD headers are forwarded and signed; other headers pass through unsigned', async (t) => {
  const { proxyUrl } = await startStack(t);
  const answer = await send(`${proxyUrl}/_emulator/echo`, {
    headers: [
      'X-SFD-FZone',
      'hk',
      'x-sfd-zone',
      'b',
      'X-Sfd-Zone',
      'a',
      'X-Request-Id',
      'r-1',
      'traceparent',
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    ],
  });
  t.is(answer.status, 200, answer.body.toString());
  const echo = answer.json<Echo>();
  t.deepEqual(received(echo, 'x-sfd-fzone'), ['hk']);
  t.deepEqual(received(echo, 'x-sfd-zone'), ['b', 'a']);
  t.deepEqual(received(echo, 'x-request-id'), ['r-1']);
  t.deepEqual(received(echo, 'traceparent'), ['00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01']);
});

test(
  "the upstream gets Host first, then the caller's " + "headers in the caller's order, then the " + "signature's",
  async (t) => {
    const { proxyUrl } = await startStack(t);
    const answer = await send(`${proxyUrl}/_emulator/echo`, {
      headers: [
        'X-C',
        '3',
        'Accept',
        '*/*',
        'x-sfd-zone',
        'b',
        'X-A',
        '1',
        'X-Sfd-Zone',
        'a',
        'User-Agent',
        'app/1.0',
        'X-B',
        '2',
      ],
    });
    t.is(answer.status, 200, answer.body.toString());
    const names = answer.json<Echo>().rawHeaders.filter((_, i) => i % 2 === 0);
    t.deepEqual(names, [
      'Host',
      'X-C',
      'Accept',
      // A repeated name goes out as one line per value, in order, where it first appeared (RFC 9110 §5.3).
      'x-sfd-zone',
      'x-sfd-zone',
      'X-A',
      'User-Agent',
      'X-B',
      'Content-Type',
      'X-SFD-Date',
      'X-SFD-Nonce',
      'X-SFD-Signature-Version',
      'Authorization',
      'Connection',
    ]);
    t.deepEqual(received(answer.json<Echo>(), 'x-sfd-zone'), ['b', 'a']);
  },
);

test(
  'a bodiless request is framed as the caller framed it: Content-Length only when the caller sent one, or for ' +
    'POST, PUT and PATCH',
  async (t) => {
    const { proxyUrl } = await startStack(t);
    const lengthsSent = async (method: string, headers: string[]): Promise<{ names: string[]; lengths: string[] }> => {
      const answer = await send(`${proxyUrl}/_emulator/echo`, { method, headers });
      t.is(answer.status, 200, `${method}: ${answer.body.toString()}`);
      const echo = answer.json<Echo>();
      return { names: echo.rawHeaders.filter((_, i) => i % 2 === 0), lengths: received(echo, 'content-length') };
    };
    for (const method of ['DELETE', 'OPTIONS', 'GET']) {
      const unframed = await lengthsSent(method, ['X-A', '1']);
      t.deepEqual(unframed.lengths, [], `${method} without a Content-Length gets none`);
      t.is(unframed.names[0], 'Host', method);
      const framed = await lengthsSent(method, ['X-A', '1', 'Content-Length', '0']);
      t.deepEqual(framed.lengths, ['0'], `${method} with Content-Length: 0 keeps it`);
      t.deepEqual(
        framed.names.slice(-2),
        ['Content-Length', 'Connection'],
        `${method}: the length after the signature`,
      );
    }
    t.deepEqual((await lengthsSent('POST', ['X-A', '1'])).lengths, ['0'], 'POST always carries a length');
  },
);

test("a caller's own Authorization, date, nonce, version and Host are dropped and replaced", async (t) => {
  const { proxyUrl, emulator } = await startStack(t);
  const answer = await send(`${proxyUrl}/_emulator/echo`, {
    headers: {
      Authorization: 'HMAC-SHA256 AKCALLER:' + 'a'.repeat(64),
      'X-SFD-Date': '19990101T000000Z',
      'X-SFD-Nonce': '11111',
      'X-SFD-Signature-Version': '9',
      Host: 'evil.example.com',
    },
  });
  t.is(answer.status, 200, answer.body.toString());
  const echo = answer.json<Echo>();
  t.is(received(echo, 'authorization').length, 1);
  t.regex(received(echo, 'authorization')[0]!, /^HMAC-SHA256 AKTEST000000001:[0-9a-f]{64}$/);
  t.notDeepEqual(received(echo, 'x-sfd-date'), ['19990101T000000Z']);
  t.notDeepEqual(received(echo, 'x-sfd-nonce'), ['11111']);
  t.deepEqual(received(echo, 'x-sfd-signature-version'), ['2']);
  t.deepEqual(received(echo, 'host'), [new URL(emulator.url).host]);
});

test('hop-by-hop headers and the headers Connection names are not forwarded', async (t) => {
  const { proxyUrl } = await startStack(t);
  const answer = await send(`${proxyUrl}/_emulator/echo`, {
    headers: {
      Connection: 'keep-alive, X-Hop-Only, X-SFD-Hop',
      'X-Hop-Only': '1',
      'X-SFD-Hop': 'h',
      TE: 'trailers',
      'Keep-Alive': 'timeout=5',
      'Proxy-Authorization': 'Basic eDp5',
    },
  });
  t.is(answer.status, 200, answer.body.toString());
  const echo = answer.json<Echo>();
  for (const name of ['x-hop-only', 'x-sfd-hop', 'te', 'keep-alive', 'proxy-authorization'])
    t.deepEqual(received(echo, name), [], name);
});

test('each request gets a fresh date and nonce: the emulator refuses replays, and none happen', async (t) => {
  const { proxyUrl } = await startStack(t);
  const answers = await Promise.all(Array.from({ length: 40 }, () => send(`${proxyUrl}/v1.2/customer`)));
  t.deepEqual(
    answers.map((a) => a.status),
    Array.from({ length: 40 }, () => 200),
  );
});

test('logs hold one line per request and never the secret, a signature or an Authorization value', async (t) => {
  const { proxyUrl, logs } = await startStack(t);
  await send(`${proxyUrl}/v1.1/customer/12345`, { headers: { Authorization: 'Bearer caller-token-xyz' } });
  await send(`${proxyUrl}/cdn/v1.0/services/1001/rateLimit`, {
    method: 'POST',
    body: '{"timeWindow": 1, "requestLimit": 1}',
  });
  const text = logs.text();
  t.is(logs.lines().filter((l) => l.event === 'request').length, 2);
  t.false(text.includes(TEST_SECRET));
  t.false(text.includes('caller-token-xyz'));
  t.notRegex(text, /[0-9a-f]{64}/);
  t.notRegex(text, /HMAC-SHA256/);
});
