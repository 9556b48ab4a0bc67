// The emulator refuses what the gateway refuses, with the documented codes, checked
// with requests built by hand and sent straight to it.
import test, { type ExecutionContext } from 'ava';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { createAccessKey } from '../../src/signing/access-key.js';
import { formatSfdDate } from '../../src/signing/format-date.js';
import { signRequest } from '../../src/signing/sign-request.js';
import { send } from '../helpers/http.js';
import { TEST_KEY_ID, TEST_SECRET } from '../helpers/secrets.js';

const HOUR = 3_600_000;

async function emulatorAt(t: ExecutionContext, now = Date.now) {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([
      [TEST_KEY_ID, { secret: Buffer.from(TEST_SECRET), customerId: 12345 }],
      ['AKNOCUSTOMER', { secret: Buffer.from(TEST_SECRET), customerId: null }],
    ]),
    now,
  });
  t.teardown(() => emulator.close());
  return emulator;
}

/** Signed headers for a GET of `path`, with overrides applied after signing. */
function signedHeaders(
  host: string,
  path: string,
  options: { date?: string; nonce?: string; keyId?: string } = {},
): Record<string, string> {
  const result = signRequest({
    method: 'GET',
    path,
    rawQuery: null,
    host,
    extraSfdHeaders: [],
    body: Buffer.alloc(0),
    key: createAccessKey(options.keyId ?? TEST_KEY_ID, TEST_SECRET),
    options: { signatureVersion: '2', v2StringShape: 'spec', queryPlacement: 'body' },
    date: options.date ?? formatSfdDate(Date.now()),
    nonce: options.nonce ?? String(100000 + Math.floor(Math.random() * 899999)),
  });
  return { ...result.headers };
}

async function codeOf(url: string, headers: Record<string, string>): Promise<[number, string]> {
  const answer = await send(url, { headers });
  return [answer.status, String(answer.json().code)];
}

test(
  'a correctly signed request is accepted, and every ' +
    'answer has a 32-hex trace id and the gateway content ' +
    'type',
  async (t) => {
    const emulator = await emulatorAt(t);
    const host = new URL(emulator.url).host;
    const answer = await send(`${emulator.url}/v1.2/customer`, { headers: signedHeaders(host, '/v1.2/customer') });
    t.is(answer.status, 200);
    t.regex(String(answer.headers['x-sfd-trace-id']), /^[0-9a-f]{32}$/);
    t.is(answer.headers['content-type'], 'application/json;charset=UTF-8');
    const refused = await send(`${emulator.url}/v1.2/customer`);
    t.regex(String(refused.headers['x-sfd-trace-id']), /^[0-9a-f]{32}$/);
  },
);

test(
  'missing or malformed Authorization is ' + 'AuthorizationFormat.Invalid; an unknown key is ' + 'AccessKeyId.Invalid',
  async (t) => {
    const emulator = await emulatorAt(t);
    const host = new URL(emulator.url).host;
    const headers = signedHeaders(host, '/v1.1/customer');
    t.deepEqual(await codeOf(`${emulator.url}/v1.1/customer`, { ...headers, Authorization: 'Bearer x' }), [
      400,
      'AuthorizationFormat.Invalid',
    ]);
    const { Authorization: _dropped, ...without } = headers;
    t.deepEqual(await codeOf(`${emulator.url}/v1.1/customer`, without), [400, 'AuthorizationFormat.Invalid']);
    t.deepEqual(
      await codeOf(`${emulator.url}/v1.1/customer`, signedHeaders(host, '/v1.1/customer', { keyId: 'AKUNKNOWN' })),
      [400, 'AccessKeyId.Invalid'],
    );
  },
);

test('dates: missing or malformed is Timestamp.Invalid; an hour away either way is Signature.Expired', async (t) => {
  const now = Date.UTC(2026, 5, 1, 12, 0, 0);
  const emulator = await emulatorAt(t, () => now);
  const host = new URL(emulator.url).host;
  const url = `${emulator.url}/v1.1/customer`;
  const { 'X-SFD-Date': _date, ...noDate } = signedHeaders(host, '/v1.1/customer', { date: formatSfdDate(now) });
  t.deepEqual(await codeOf(url, noDate), [400, 'Timestamp.Invalid']);
  t.deepEqual(await codeOf(url, signedHeaders(host, '/v1.1/customer', { date: '2026-06-01T12:00:00Z' })), [
    400,
    'Timestamp.Invalid',
  ]);
  t.deepEqual(await codeOf(url, signedHeaders(host, '/v1.1/customer', { date: '20260231T120000Z' })), [
    400,
    'Timestamp.Invalid',
  ]);
  t.deepEqual(await codeOf(url, signedHeaders(host, '/v1.1/customer', { date: formatSfdDate(now - HOUR) })), [
    400,
    'Signature.Expired',
  ]);
  t.deepEqual(await codeOf(url, signedHeaders(host, '/v1.1/customer', { date: formatSfdDate(now + HOUR) })), [
    400,
    'Signature.Expired',
  ]);
  const justInside = await send(url, {
    headers: signedHeaders(host, '/v1.1/customer', { date: formatSfdDate(now - HOUR + 1000) }),
  });
  t.is(justInside.status, 200);
});

test('nonces: too short, too long, a leading zero or letters are Nonce.Invalid; a reused one is refused', async (t) => {
  const emulator = await emulatorAt(t);
  const host = new URL(emulator.url).host;
  const url = `${emulator.url}/v1.1/customer`;
  for (const nonce of ['1234', '1234567890123456789', '012345', '12a456']) {
    t.deepEqual(await codeOf(url, signedHeaders(host, '/v1.1/customer', { nonce })), [400, 'Nonce.Invalid'], nonce);
  }
  const once = signedHeaders(host, '/v1.1/customer', { nonce: '777777' });
  t.is((await send(url, { headers: once })).status, 200);
  t.deepEqual(await codeOf(url, once), [401, 'Emulator.NonceReplayed']);
});

test('a version other than 2 is Signature.Version.Invalid; a tampered signature is Signature.NotMatch', async (t) => {
  const emulator = await emulatorAt(t);
  const host = new URL(emulator.url).host;
  const url = `${emulator.url}/v1.1/customer`;
  t.deepEqual(await codeOf(url, { ...signedHeaders(host, '/v1.1/customer'), 'X-SFD-Signature-Version': '3' }), [
    400,
    'Signature.Version.Invalid',
  ]);
  const headers = signedHeaders(host, '/v1.1/customer');
  const flipped = headers.Authorization!.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
  t.deepEqual(await codeOf(url, { ...headers, Authorization: flipped }), [401, 'Signature.NotMatch']);
  t.deepEqual(await codeOf(`${emulator.url}/v1.1/customer/12346`, signedHeaders(host, '/v1.1/customer')), [
    401,
    'Signature.NotMatch',
  ]);
});

test("customer and rate-limit routes answer with the gateway's fields and codes", async (t) => {
  const emulator = await emulatorAt(t);
  const host = new URL(emulator.url).host;
  const get = async (path: string, keyId?: string) =>
    send(`${emulator.url}${path}`, { headers: signedHeaders(host, path, { keyId }) });
  t.deepEqual(Object.keys((await get('/v1.1/customer/12346')).json()), [
    'id',
    'name',
    'parentId',
    'partnership',
    'type',
    'onboardingType',
    'region',
    'industry',
    'ingestDomain',
  ]);
  t.is((await get('/v1.1/customer/99999')).json().code, 'Permission.Forbidden');
  t.is((await get('/v1.1/customer/abc')).json().code, 'CustomerId.Invalid');
  t.deepEqual(
    (await get('/v1.2/customerChildren/12345')).json<{ id: number }[]>().map((c) => c.id),
    [12346, 12347],
  );
  t.deepEqual((await get('/cdn/v1.0/services/1002/rateLimit')).json(), {});
  t.is((await get('/cdn/v1.0/services/1001/rateLimit', 'AKNOCUSTOMER')).json().code, 'InvalidCustomer.IdEmpty');
  t.is((await get('/no/such/path')).json().code, 'URI.Invalid');
  const put = await send(`${emulator.url}/cdn/v1.0/services/1001/rateLimit`, {
    method: 'PUT',
    headers: { ...signedHeadersFor('PUT') },
  });
  t.is(put.json().code, 'Method.Invalid');

  function signedHeadersFor(method: string): Record<string, string> {
    const result = signRequest({
      method,
      path: '/cdn/v1.0/services/1001/rateLimit',
      rawQuery: null,
      host,
      extraSfdHeaders: [],
      body: Buffer.alloc(0),
      key: createAccessKey(TEST_KEY_ID, TEST_SECRET),
      options: { signatureVersion: '2', v2StringShape: 'spec', queryPlacement: 'body' },
      date: formatSfdDate(Date.now()),
      nonce: '123456789',
    });
    return { ...result.headers };
  }
});
