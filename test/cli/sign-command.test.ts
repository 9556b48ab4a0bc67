// `sfd-sidecar sign`: what the sidecar would send for known inputs, as JSON and for a human.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';

const SECRET = 'fixture-secret-0001';
const exampleArgs = [
  'sign',
  '--method',
  'GET',
  '--url',
  'https://base-api.swiftfederation.com/v1.2/customerChildren/12345?page=2&size=10',
  '--access-key-id',
  'AK1',
  '--date',
  '20180328T173013Z',
  '--nonce',
  '12345678',
  '--header',
  'X-SFD-FZone: hk',
  '--body',
  '{"a":1}',
  '--signature-version',
  '2',
  '--v2-string-shape',
  'spec',
  '--query-placement',
  'body',
];

test('the documented example prints the literal string to sign, the signature and every header it sets', async (t) => {
  const run = await runCli([...exampleArgs, '--json'], { env: { SFD_ACCESS_KEY_SECRET: SECRET } });
  t.is(run.code, 0, run.stderr);
  const signature = 'ac4f8014d60d8c566fa79639bf14e1f3463491421947ed071aee42695864bf41';
  t.deepEqual(JSON.parse(run.stdout), {
    stringToSign:
      'GET\n/v1.2/customerChildren/12345\nhost:base-api.swiftfederation.com\nx-sfd-date:20180328T173013Z\n' +
      'x-sfd-fzone:hk\nx-sfd-nonce:12345678\nx-sfd-signature-version:2\n\nAK1\npage=2&size=10',
    signature,
    headers: {
      Host: 'base-api.swiftfederation.com',
      'Content-Type': 'application/json; charset=utf-8',
      'X-SFD-Date': '20180328T173013Z',
      'X-SFD-Nonce': '12345678',
      'X-SFD-Signature-Version': '2',
      Authorization: `HMAC-SHA256 AK1:${signature}`,
    },
  });
  t.false(run.stdout.includes(SECRET));
});

test("scheme 1 from a secret file and a body file: no version header, the public clients' string", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-sign-'));
  writeFileSync(join(dir, 'secret'), `${SECRET}\n`);
  writeFileSync(join(dir, 'body.json'), '{"name": "caf\u00e9 \u6771\u4eac",  "timeWindow" : 30}');
  const run = await runCli(
    [
      'sign',
      '--json',
      '--method',
      'post',
      '--url',
      'https://open-api.swiftfederation.com:8443/cdn/v1.0/services/1001/rateLimit?dry=1',
      '--access-key-id',
      'AK1',
      '--date',
      '20240229T235959Z',
      '--nonce',
      '99999',
      '--body-file',
      join(dir, 'body.json'),
      '--signature-version',
      '1',
    ],
    { env: { SFD_ACCESS_KEY_SECRET_FILE: join(dir, 'secret') } },
  );
  t.is(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as { signature: string; headers: Record<string, string>; stringToSign: string };
  t.is(out.signature, '43cd0f42518cd54633e5525c6de55edf4f9c83dc370802c506904d8c32da291e');
  t.false('X-SFD-Signature-Version' in out.headers);
  t.is(out.headers.Host, 'open-api.swiftfederation.com:8443');
  t.is(
    out.stringToSign,
    'POST\n/cdn/v1.0/services/1001/rateLimit?dry=1\n20240229T235959Z\n99999\nAK1\n{"name": "caf\u00e9 ' +
      '\u6771\u4eac",  "timeWindow" : 30}',
  );
});

test('the human form shows each line feed and the signature, never the secret', async (t) => {
  const run = await runCli(exampleArgs, { env: { SFD_ACCESS_KEY_SECRET: SECRET } });
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.includes('  GET\\n\n  /v1.2/customerChildren/12345\\n\n'));
  t.true(run.stdout.includes('  x-sfd-signature-version:2\\n\n  \\n\n  AK1\\n\n  page=2&size=10<end>'));
  t.true(run.stdout.includes('Signature: ac4f8014d60d8c566fa79639bf14e1f3463491421947ed071aee42695864bf41'));
  t.false(run.stdout.includes(SECRET));
});

test('without --date and --nonce it uses now and a fresh nonce', async (t) => {
  const run = await runCli(['sign', '--json', '--url', 'https://h/v1.1/customer', '--access-key-id', 'AK1'], {
    env: { SFD_ACCESS_KEY_SECRET: SECRET },
  });
  t.is(run.code, 0, run.stderr);
  const headers = (JSON.parse(run.stdout) as { headers: Record<string, string> }).headers;
  t.regex(headers['X-SFD-Date']!, /^\d{8}T\d{6}Z$/);
  t.regex(headers['X-SFD-Nonce']!, /^[1-9]\d{17}$/);
  const skew = Math.abs(
    Date.parse(headers['X-SFD-Date']!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')) -
      Date.now(),
  );
  t.true(skew < 60_000);
});

test('bad sign inputs are all listed at once and the secret is not echoed', async (t) => {
  const run = await runCli(
    [
      'sign',
      '--url',
      'ftp://x',
      '--date',
      '2018-03-28',
      '--nonce',
      '0123',
      '--signature-version',
      '3',
      '--header',
      'nocolon',
    ],
    {
      env: { SFD_ACCESS_KEY_SECRET: SECRET },
    },
  );
  t.is(run.code, 2);
  for (const fragment of ['--url', '--date', '--nonce', 'SFD_SIGNATURE_VERSION', 'SFD_ACCESS_KEY_ID', '--header'])
    t.true(run.stderr.includes(fragment), fragment);
  t.false(run.stderr.includes(SECRET));
  t.is(run.stdout, '');
});
