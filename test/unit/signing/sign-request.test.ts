// Signing fixtures: every string to sign is written out literally from the protocol's rules
// (docs/signing.md) and every signature was computed by a third implementation
// (Python's hmac module), not by this code.
import test from 'ava';
import { createAccessKey } from '../../../src/signing/access-key.js';
import { signRequest, type SignInput } from '../../../src/signing/sign-request.js';
import type { SigningOptions } from '../../../src/signing/types.js';

const key = createAccessKey('AK1', 'fixture-secret-0001');
const v2 = (
  v2StringShape: SigningOptions['v2StringShape'],
  queryPlacement: SigningOptions['queryPlacement'] = 'body',
): SigningOptions => ({
  signatureVersion: '2',
  v2StringShape,
  queryPlacement,
});
const v1 = (queryPlacement: SigningOptions['queryPlacement']): SigningOptions => ({
  signatureVersion: '1',
  v2StringShape: 'spec',
  queryPlacement,
});

const childrenGet: Omit<SignInput, 'options'> = {
  method: 'GET',
  path: '/v1.2/customerChildren/12345',
  rawQuery: 'page=2&size=10',
  host: 'base-api.swiftfederation.com',
  extraSfdHeaders: [{ name: 'X-SFD-FZone', value: 'hk' }],
  body: Buffer.from('{"a":1}'),
  key,
  date: '20180328T173013Z',
  nonce: '12345678',
};
const canonicalChildren =
  'host:base-api.swiftfederation.com\nx-sfd-date:20180328T173013Z\nx-sfd-fzone:hk\n' +
  'x-sfd-nonce:12345678\nx-sfd-signature-version:2\n';

const spacedNonAscii = Buffer.from('{"name": "caf\u00e9 \u6771\u4eac",  "timeWindow" : 30}', 'utf8');
const rateLimitPost: Omit<SignInput, 'options'> = {
  method: 'post',
  path: '/cdn/v1.0/services/1001/rateLimit',
  rawQuery: 'dry=1',
  host: 'open-api.swiftfederation.com:8443',
  extraSfdHeaders: [],
  body: spacedNonAscii,
  key,
  date: '20240229T235959Z',
  nonce: '99999',
};

interface Fixture {
  readonly title: string;
  readonly input: SignInput;
  readonly stringToSign: Buffer;
  readonly signature: string;
}

const fixtures: Fixture[] = [
  {
    title: 'scheme 2, shape spec, GET query in the body position, custom X-SFD header signed',
    input: { ...childrenGet, options: v2('spec') },
    stringToSign: Buffer.from(`GET\n/v1.2/customerChildren/12345\n${canonicalChildren}\nAK1\npage=2&size=10`),
    signature: 'ac4f8014d60d8c566fa79639bf14e1f3463491421947ed071aee42695864bf41',
  },
  {
    title: 'scheme 2, shape no-extra-lf',
    input: { ...childrenGet, options: v2('no-extra-lf') },
    stringToSign: Buffer.from(`GET\n/v1.2/customerChildren/12345\n${canonicalChildren}AK1\npage=2&size=10`),
    signature: '1f12138c264b69e108bbd1abb7bb8846389ba8d179e3fa843c84c38a6f56808d',
  },
  {
    title: 'scheme 2, shape no-keyid',
    input: { ...childrenGet, options: v2('no-keyid') },
    stringToSign: Buffer.from(`GET\n/v1.2/customerChildren/12345\n${canonicalChildren}\npage=2&size=10`),
    signature: '8dca9f9dad541c01b6a97446f577f831614dca7924cb8a470185e6aa4aef5ac7',
  },
  {
    title: 'scheme 2, shape no-keyid-no-extra-lf',
    input: { ...childrenGet, options: v2('no-keyid-no-extra-lf') },
    stringToSign: Buffer.from(`GET\n/v1.2/customerChildren/12345\n${canonicalChildren}page=2&size=10`),
    signature: '2a3a11df69b88c2305fa32e47420dda3ccc15a7f85fbb42a927afbf9029e7f37',
  },
  {
    title: 'scheme 2, placement uri: the query stays in the uri line and the body is signed',
    input: { ...childrenGet, options: v2('spec', 'uri') },
    stringToSign: Buffer.from(`GET\n/v1.2/customerChildren/12345?page=2&size=10\n${canonicalChildren}\nAK1\n{"a":1}`),
    signature: 'b2ea911a9306e50e2361dd2b0acb219d3c53969a0106c370a4dfa4278a9dfc3f',
  },
  {
    title: 'scheme 1, placement body: date and nonce lines, no canonical headers',
    input: { ...childrenGet, options: v1('body') },
    stringToSign: Buffer.from('GET\n/v1.2/customerChildren/12345\n20180328T173013Z\n12345678\nAK1\npage=2&size=10'),
    signature: 'c8acb9d4ee062d722fbd9494c53ad90f9f95718ffbcc6323083b91e9763ec13c',
  },
  {
    title: 'scheme 1, placement uri',
    input: { ...childrenGet, options: v1('uri') },
    stringToSign: Buffer.from(
      'GET\n/v1.2/customerChildren/12345?page=2&size=10\n20180328T173013Z\n12345678\nAK1\n{"a":1}',
    ),
    signature: '938d956b36cf0cb5d25f9a163f43e289d7a296f8b111f1bf9dd96bc533013691',
  },
  {
    title: 'scheme 2, POST keeps its query in the uri line, non-default port in host, spaced non-ASCII body as bytes',
    input: { ...rateLimitPost, options: v2('spec') },
    stringToSign: Buffer.concat([
      Buffer.from(
        'POST\n/cdn/v1.0/services/1001/rateLimit?dry=1\nhost:open-api.swiftfederation.com:8443\n' +
          'x-sfd-date:20240229T235959Z\nx-sfd-nonce:99999\nx-sfd-signature-version:2\n\nAK1\n',
      ),
      spacedNonAscii,
    ]),
    signature: '8bb633609cebb84d1e532e25e4ac67ef4a0a501f15b0eee655ca4f1029d6fb15',
  },
  {
    title: 'scheme 1, POST with a non-ASCII body',
    input: { ...rateLimitPost, options: v1('body') },
    stringToSign: Buffer.concat([
      Buffer.from('POST\n/cdn/v1.0/services/1001/rateLimit?dry=1\n20240229T235959Z\n99999\nAK1\n'),
      spacedNonAscii,
    ]),
    signature: '43cd0f42518cd54633e5525c6de55edf4f9c83dc370802c506904d8c32da291e',
  },
  {
    title: 'scheme 2, repeated X-SFD headers joined by commas in order, odd case and spaces trimmed, sorted',
    input: {
      method: 'DELETE',
      path: '/cdn/v1.0/services/1001/rateLimit',
      rawQuery: null,
      host: 'open-api.swiftfederation.com',
      extraSfdHeaders: [
        { name: ' X-Sfd-Zone ', value: '  b ' },
        { name: 'x-sfd-a', value: 'first' },
        { name: 'X-SFD-ZONE', value: 'a\t' },
      ],
      body: Buffer.from('{}'),
      key,
      date: '20180328T173013Z',
      nonce: '10000',
      options: v2('spec'),
    },
    stringToSign: Buffer.from(
      'DELETE\n/cdn/v1.0/services/1001/rateLimit\nhost:open-api.swiftfederation.com\nx-sfd-a:first\n' +
        'x-sfd-date:20180328T173013Z\nx-sfd-nonce:10000\nx-sfd-signature-version:2\nx-sfd-zone:b,a\n\nAK1\n{}',
    ),
    signature: 'e0d5bf3a32a8fffba0452e26b7023aa7d4b55382e94b9482a862523a54d89d9e',
  },
  {
    title: 'scheme 2, GET with neither query nor body: an empty body position',
    input: {
      ...childrenGet,
      path: '/v1.1/customer',
      rawQuery: null,
      extraSfdHeaders: [],
      body: Buffer.alloc(0),
      options: v2('spec'),
    },
    stringToSign: Buffer.from(
      'GET\n/v1.1/customer\nhost:base-api.swiftfederation.com\nx-sfd-date:20180328T173013Z\n' +
        'x-sfd-nonce:12345678\nx-sfd-signature-version:2\n\nAK1\n',
    ),
    signature: 'b83a661c0688e68984873a61b88cfd24ca1f3063ff498a2aa8d21048c4c39e02',
  },
];

for (const fixture of fixtures) {
  test(fixture.title, (t) => {
    const result = signRequest(fixture.input);
    const signed = Buffer.concat([Buffer.from(result.stringToSignPrefix, 'latin1'), result.bodyPosition]);
    t.is(signed.toString('utf8'), fixture.stringToSign.toString('utf8'));
    t.true(signed.equals(fixture.stringToSign));
    t.is(result.signature, fixture.signature);
    t.is(result.headers.Authorization, `HMAC-SHA256 AK1:${fixture.signature}`);
  });
}

test("scheme 2 sends the version header and the gateway's content type; scheme 1 sends no version header", (t) => {
  const two = signRequest({ ...childrenGet, options: v2('spec') }).headers;
  t.deepEqual(Object.keys(two), [
    'Host',
    'Content-Type',
    'X-SFD-Date',
    'X-SFD-Nonce',
    'X-SFD-Signature-Version',
    'Authorization',
  ]);
  t.is(two['Content-Type'], 'application/json; charset=utf-8');
  t.is(two['X-SFD-Signature-Version'], '2');
  const one = signRequest({ ...childrenGet, options: v1('body') }).headers;
  t.false('X-SFD-Signature-Version' in one);
  t.is(one.Host, 'base-api.swiftfederation.com');
});

test('GET with a {} body and no query signs {}, as clients that send {} expect', (t) => {
  const result = signRequest({ ...childrenGet, rawQuery: null, body: Buffer.from('{}'), options: v2('spec') });
  t.is(result.bodyPosition.toString(), '{}');
  t.is(result.uri, '/v1.2/customerChildren/12345');
});

test('the secret is never in what the signer returns', (t) => {
  const result = signRequest({ ...childrenGet, options: v2('spec') });
  t.false(JSON.stringify(result).includes('fixture-secret-0001'));
  t.false(JSON.stringify(key).includes('fixture-secret-0001'));
});
