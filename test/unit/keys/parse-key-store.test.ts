// Parsing and validating key store files: JSON and YAML, every problem listed, secrets never quoted.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { keystoreJsonSchema } from '../../../src/keys/keystore-schema.js';
import { parseKeyStore } from '../../../src/keys/parse-key-store.js';
import { readRegularFile } from '../../../src/files/regular-file.js';

const files = { readFile: readRegularFile };
const SECRET = 'keystore-secret-never-quoted-91b2';

const valid = {
  profiles: {
    billing: {
      upstreamUrl: 'https://open-api.swiftfederation.com',
      signatureVersion: '1',
      keys: [
        { accessKeyId: 'AKOLD', secret: SECRET, notAfter: '2026-12-08T00:00:00Z' },
        { accessKeyId: 'AKNEW', secretFile: 'billing-new.secret', notBefore: '2026-12-01T00:00:00Z' },
      ],
    },
    reports: { keys: [{ accessKeyId: 'AKREP', secret: SECRET }] },
  },
};

function storeDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-ks-'));
  writeFileSync(join(dir, 'billing-new.secret'), `${SECRET}-new\n`);
  return dir;
}

test('a valid JSON store loads with windows, secret files relative to it, and per-profile settings', async (t) => {
  const dir = storeDir();
  const parsed = await parseKeyStore(JSON.stringify(valid), join(dir, 'keystore.json'), files);
  if (!parsed.ok) return t.fail(parsed.problems.join('\n'));
  const billing = parsed.store.profiles.get('billing')!;
  t.is(billing.keys.length, 2);
  t.is(billing.keys[1]!.notBefore, Date.parse('2026-12-01T00:00:00Z'));
  t.is(billing.keys[0]!.notAfter, Date.parse('2026-12-08T00:00:00Z'));
  t.is(billing.keys[1]!.key.secret.export().toString(), `${SECRET}-new`);
  t.deepEqual(billing.signing, { signatureVersion: '1' });
  t.is(billing.upstream?.host, 'open-api.swiftfederation.com');
  t.is(parsed.store.profiles.get('reports')!.upstream, null);
});

test('the same store as YAML loads alike', async (t) => {
  const dir = storeDir();
  const yaml =
    `profiles:\n  reports:\n    keys:\n      - accessKeyId: AKREP\n        secret: "${SECRET}"\n        ` +
    `notAfter: 2027-01-01T00:00:00Z\n`;
  const parsed = await parseKeyStore(yaml, join(dir, 'keystore.yaml'), files);
  t.true(parsed.ok);
  if (parsed.ok) t.is(parsed.store.profiles.get('reports')!.keys[0]!.notAfter, Date.parse('2027-01-01T00:00:00Z'));
});

test('every problem is listed with its place in the file, and no secret is quoted', async (t) => {
  const dir = storeDir();
  const broken = {
    profiles: {
      billing: {
        upstreamUrl: 'ftp://nope',
        keys: [
          { accessKeyId: 'AK ONE', secret: SECRET },
          { accessKeyId: 'AKTWO', secret: SECRET, secretFile: 'x' },
          { accessKeyId: 'AKTHREE', secretFile: 'missing.secret' },
          {
            accessKeyId: 'AKFOUR',
            secret: SECRET,
            notBefore: '2026-12-02T00:00:00Z',
            notAfter: '2026-12-01T00:00:00Z',
          },
          { accessKeyId: 'AKFOUR', secret: SECRET, notBefore: 'tomorrow' },
        ],
      },
      empty: { keys: [] },
      typo: { keys: [{ accessKeyId: 'AK5', secrett: SECRET }] },
    },
  };
  const parsed = await parseKeyStore(JSON.stringify(broken), join(dir, 'keystore.json'), files);
  if (parsed.ok) return t.fail('accepted a broken store');
  const text = parsed.problems.join('\n');
  for (const fragment of [
    'profiles.billing.keys[0].accessKeyId',
    'profiles.billing.keys[4].notBefore',
    'profiles.empty.keys',
    'profiles.typo.keys[0]',
  ]) {
    t.true(text.includes(fragment), fragment);
  }
  t.false(text.includes(SECRET));
});

test('semantic problems are all listed once the shape is right', async (t) => {
  const dir = storeDir();
  const broken = {
    profiles: {
      billing: {
        upstreamUrl: 'ftp://nope',
        keys: [
          { accessKeyId: 'AKTWO', secret: SECRET, secretFile: 'x' },
          { accessKeyId: 'AKTHREE', secretFile: 'missing.secret' },
          {
            accessKeyId: 'AKFOUR',
            secret: SECRET,
            notBefore: '2026-12-02T00:00:00Z',
            notAfter: '2026-12-01T00:00:00Z',
          },
          { accessKeyId: 'AKFOUR', secret: SECRET },
          { accessKeyId: 'AKSIX' },
        ],
      },
    },
  };
  const parsed = await parseKeyStore(JSON.stringify(broken, null, 2), join(dir, 'keystore.json'), files);
  if (parsed.ok) return t.fail('accepted a broken store');
  t.deepEqual(parsed.problems, [
    'line 4, column 7: profiles.billing.upstreamUrl: must be an http:// or https:// base URL like ' +
      'https://host[:port][/prefix], without user, query or fragment',
    'line 6, column 9: profiles.billing.keys[0]: give exactly one of secret and secretFile',
    'line 13, column 11: profiles.billing.keys[1].secretFile: does not exist (ENOENT)',
    'line 15, column 9: profiles.billing.keys[2]: notBefore must be earlier than notAfter',
    'line 22, column 11: profiles.billing.keys[3].accessKeyId: the same as keys[2].accessKeyId; a profile lists ' +
      'each key once',
    'line 25, column 9: profiles.billing.keys[4]: give exactly one of secret and secretFile',
  ]);
  t.false(parsed.problems.join('\n').includes(SECRET));
});

test('a half-written file is refused with a position and without quoting it', async (t) => {
  const full = JSON.stringify(valid);
  const half = full.slice(0, full.indexOf(SECRET) + 10);
  const parsed = await parseKeyStore(half, '/x/keystore.json', files);
  if (parsed.ok) return t.fail('accepted half a file');
  t.regex(parsed.problems[0]!, /^\(file\): not valid JSON/);
  t.false(parsed.problems.join('\n').includes(SECRET.slice(0, 10)));
  const yaml = await parseKeyStore(
    `profiles:\n  a:\n    keys: [ {accessKeyId: X, secret: "${SECRET}`,
    '/x/keystore.yaml',
    files,
  );
  if (yaml.ok) return t.fail('accepted half a YAML file');
  t.regex(yaml.problems[0]!, /^\(file\): not valid YAML at line \d+, column \d+: [a-z]/);
});

test('the published JSON Schema is the generated one and accepts and refuses like the sidecar', async (t) => {
  const published = JSON.parse(
    readFileSync(new URL('../../../../schema/keystore.schema.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  t.deepEqual(published, keystoreJsonSchema());
  // With the formats checked, as the schema declares them (date-time for notBefore and notAfter).
  const validate = addFormats.default(new Ajv2020({ strict: false })).compile(published);
  t.true(validate(valid), JSON.stringify(validate.errors));
  t.false(validate({ profiles: { a: { keys: [{ accessKeyId: 'AK1', secret: 's', secretFile: 'f' }] } } }));
  t.false(validate({ profiles: { a: { keys: [{ accessKeyId: 'AK1' }] } } }));
  t.false(validate({ profiles: { a: { keys: [{ accessKeyId: 'AK1', secret: 's', notAfter: 'soon' }] } } }));
  const badMonth = {
    profiles: { a: { keys: [{ accessKeyId: 'AK1', secret: 's', notAfter: '2026-13-01T00:00:00Z' }] } },
  };
  t.false(validate(badMonth), 'the schema refuses month 13');
  t.false((await parseKeyStore(JSON.stringify(badMonth), '/x/keystore.json', files)).ok, 'and so does the sidecar');
});

test('a secret where a name or a field belongs is never quoted: the problem gives its line', async (t) => {
  const dir = storeDir();
  // `secret:` with its value on the next line, indented as a key; and a secret where a profile name goes.
  const yaml = [
    'profiles:',
    '  billing:',
    '    keys:',
    '      - accessKeyId: AKBILL',
    '        secret:',
    `        ${SECRET}:`,
    `  ${SECRET}+/=:`,
    '    keys: []',
    '',
  ].join('\n');
  const parsed = await parseKeyStore(yaml, join(dir, 'keystore.yaml'), files);
  if (parsed.ok) return t.fail('accepted a broken store');
  t.deepEqual(parsed.problems, [
    'line 6, column 9: profiles.billing.keys[0]: a field a key does not have (it has accessKeyId, secret, ' +
      'secretFile, notBefore, notAfter)',
    'line 5, column 9: profiles.billing.keys[0].secret: must be a non-empty string',
    'line 7, column 3: profiles[1]: a profile name must be letters, digits, dot, dash and underscore, at most 63',
    'line 8, column 5: profiles[1].keys: must be a list of one key or more',
  ]);
  t.false(parsed.problems.join('\n').includes(SECRET.slice(0, 8)));
});
