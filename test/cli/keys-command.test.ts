// `sfd-sidecar keys check|list|schema|split` and the key store settings as a user runs them, SIGHUP included.
import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { runCli, startCli } from '../helpers/cli-process.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { send } from '../helpers/http.js';
import { keystoreJson } from '../helpers/keystore-stack.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';
import { eventually } from '../helpers/time.js';

const SECRET = 'cli-keystore-secret-77aa';

function storeFile(contents: string, name = 'keystore.json'): string {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-keys-'));
  writeFileSync(join(dir, name), contents);
  return join(dir, name);
}

test('keys check: a valid store exits 0 with a summary', async (t) => {
  const path = storeFile(
    keystoreJson({
      billing: {
        keys: [
          { accessKeyId: 'AK1', secret: SECRET },
          { accessKeyId: 'AK2', secret: SECRET },
        ],
      },
    }),
  );
  const run = await runCli(['keys', 'check', path]);
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, `${path}: valid, 1 profile, 2 keys\n`);
});

test('keys check: an invalid store exits 1 listing every problem, without the secret', async (t) => {
  const path = storeFile(
    keystoreJson({
      billing: { keys: [{ accessKeyId: 'AK 1', secret: SECRET, notAfter: 'never' }] },
      'bad name': { keys: [] },
    }),
  );
  const run = await runCli(['keys', 'check', path]);
  t.is(run.code, 1);
  // Every problem in one run, the shape of one profile as well as the other's.
  t.regex(run.stderr, /4 problems/);
  t.true(
    run.stderr.includes(
      'profiles.billing.keys[0].accessKeyId: must be 1 to 128 printable characters without spaces or colons',
    ),
  );
  t.true(
    run.stderr.includes('profiles.billing.keys[0].notAfter: must be an RFC 3339 instant, e.g. 2026-12-01T00:00:00Z'),
  );
  t.true(
    run.stderr.includes('profiles[1]: a profile name must be letters, digits, dot, dash and underscore, at most 63'),
  );
  t.true(run.stderr.includes('profiles[1].keys: must be a list of one key or more'));
  t.false(run.stderr.includes('bad name'), 'a name that is not a profile name is not quoted');
  t.false(run.stderr.includes(SECRET));
  const missing = await runCli(['keys', 'check', '/nope/keystore.json']);
  t.is(missing.code, 1);
  t.true(missing.stderr.includes('(file): does not exist (ENOENT)'));
});

// Each a store JSON.parse refuses while YAML's flow style reads it, and whose problem is after the secret.
const SYNTAX_ERRORS: [title: string, text: string, line: number, column: number, what: RegExp][] = [
  [
    'a trailing comma',
    `{"profiles": {"billing": {"keys": [\n  {"accessKeyId": "AK1", "secret": "${SECRET}",}\n]}}}`,
    2,
    63,
    /property name/,
  ],
  [
    'single quotes',
    `{"profiles": {"billing": {"keys": [\n  {"accessKeyId": "AK1",\n   "secret": '${SECRET}'}]}}}`,
    3,
    14,
    /single quotes/,
  ],
  [
    'a comment',
    `{"profiles": {"billing": {"keys": [{"accessKeyId": "AK1", "secret": "${SECRET}"}]}}}\n// rotated`,
    2,
    1,
    /comment/,
  ],
];

for (const [title, text, line, column, what] of SYNTAX_ERRORS) {
  test(`keys check and serve say the line and column of ${title}, quoting nothing of the file`, async (t) => {
    const path = storeFile(text);
    const check = await runCli(['keys', 'check', path]);
    t.is(check.code, 1);
    const expected = `(file): not valid JSON at line ${line}, column ${column}: `;
    t.true(check.stderr.startsWith(`${path}: 1 problem:\n  - ${expected}`), check.stderr);
    t.regex(check.stderr, what);
    const serve = await startCli(['serve'], /"event":"listening"/, {
      env: {
        SFD_LISTEN: '127.0.0.1:0',
        SFD_ADMIN_LISTEN: '127.0.0.1:0',
        SFD_UPSTREAM_URL: 'http://127.0.0.1:9',
        SFD_KEYSTORE_FILE: path,
        SFD_PROFILE: 'billing',
      },
    });
    t.teardown(() => serve.child.kill('SIGKILL'));
    const warning = serve
      .stdout()
      .split('\n')
      .find((l) => l.includes('"event":"key store not loaded'));
    t.like(JSON.parse(warning ?? '{}'), {
      reason: 'start',
      path,
      problems: check.stderr.split('\n')[1]!.slice('  - '.length),
    });
    for (const output of [check.stdout, check.stderr, serve.stdout(), serve.stderr()]) {
      t.false(output.includes(SECRET.slice(0, 12)));
      t.false(output.includes('AK1'));
    }
  });
}

test('keys list: profiles, key ids, windows, the current key and days to expiry, never a secret', async (t) => {
  const soon = new Date(Date.now() + 3.5 * 86_400_000).toISOString();
  const path = storeFile(
    keystoreJson({
      billing: {
        keys: [
          { accessKeyId: 'AKOLD', secret: SECRET, notAfter: soon },
          { accessKeyId: 'AKNEXT', secret: SECRET, notBefore: '2099-01-01T00:00:00Z' },
        ],
      },
    }),
  );
  const json = await runCli(['keys', 'list', '--json'], { env: { SFD_KEYSTORE_FILE: path } });
  t.is(json.code, 0, json.stderr);
  const rows = JSON.parse(json.stdout) as {
    accessKeyId: string;
    current: boolean;
    daysToExpiry: number | null;
    notBefore: string | null;
  }[];
  t.like(rows[0], { accessKeyId: 'AKOLD', current: true });
  t.true(rows[0]!.daysToExpiry! > 3.3 && rows[0]!.daysToExpiry! <= 3.5);
  t.like(rows[1], { accessKeyId: 'AKNEXT', current: false, daysToExpiry: null, notBefore: '2099-01-01T00:00:00.000Z' });
  const human = await runCli(['keys', 'list', '--keystore-file', path]);
  t.is(human.code, 0);
  t.regex(human.stdout, /^PROFILE\s+ACCESS KEY ID\s+NOT BEFORE\s+NOT AFTER\s+CURRENT\s+DAYS TO EXPIRY\n/);
  t.regex(human.stdout, /billing\s+AKOLD\s+-\s+\S+\s+yes\s+3\.\d/);
  t.false(human.stdout.includes(SECRET) || json.stdout.includes(SECRET));
});

test('keys check: secret files beside the store come with the kubectl command that carries them all', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-keys-'));
  writeFileSync(join(dir, 'billing-a.secret'), `${SECRET}-a\n`);
  writeFileSync(join(dir, 'billing-b.secret'), `${SECRET}-b\n`);
  const store = keystoreJson({
    billing: {
      keys: [
        { accessKeyId: 'AKA', secretFile: 'billing-a.secret' },
        { accessKeyId: 'AKB', secretFile: 'billing-b.secret', notBefore: '2020-01-01T00:00:00Z' },
      ],
    },
    reports: { keys: [{ accessKeyId: 'AKR', secret: SECRET }] },
  });
  writeFileSync(join(dir, 'keystore.json'), store);
  const run = await runCli(['keys', 'check', 'keystore.json'], { cwd: dir });
  t.is(run.code, 0, run.stderr);
  t.is(run.stderr, '', 'nothing to warn about');
  const command =
    'kubectl -n NAMESPACE create secret generic sfd-keys --from-file=keystore.json=keystore.json ' +
    '--from-file=billing-a.secret=billing-a.secret --from-file=billing-b.secret=billing-b.secret';
  t.true(run.stdout.includes(`\n  ${command}\n`), run.stdout);
  // What the command carries, laid out as the kubelet mounts the Secret, is a store the sidecar can read.
  const carried = Object.fromEntries(
    [...command.matchAll(/--from-file=([^=]+)=(\S+)/g)].map(([, key, path]) => [
      key!,
      readFileSync(join(dir, path!), 'utf8'),
    ]),
  );
  const pod = createSecretVolume(carried);
  const inPod = await runCli(['keys', 'check', pod.path('keystore.json')]);
  t.is(inPod.code, 0, inPod.stderr);
  t.false((run.stdout + run.stderr + inPod.stdout + inPod.stderr).includes(SECRET));
});

test('keys check: warns, naming each key, of a secret file a Secret would leave out of the pod', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'sfd-keys-'));
  const dir = join(root, 'store');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  mkdirSync(join(root, 'common'));
  writeFileSync(join(dir, 'beside.secret'), `${SECRET}-1\n`);
  writeFileSync(join(root, 'common', 'outside.secret'), `${SECRET}-2\n`);
  writeFileSync(join(dir, 'sub', 'nested.secret'), `${SECRET}-3\n`);
  writeFileSync(join(dir, 'bad name.secret'), `${SECRET}-4\n`);
  writeFileSync(join(root, 'absolute.secret'), `${SECRET}-5\n`);
  writeFileSync(
    join(dir, 'keystore.json'),
    keystoreJson({
      billing: {
        keys: [
          { accessKeyId: 'AK0', secretFile: 'beside.secret' },
          { accessKeyId: 'AK1', secretFile: '../common/outside.secret' },
          { accessKeyId: 'AK2', secretFile: 'sub/nested.secret' },
          { accessKeyId: 'AK3', secretFile: 'bad name.secret' },
        ],
      },
      reports: { keys: [{ accessKeyId: 'AKR', secretFile: join(root, 'absolute.secret') }] },
    }),
  );
  const path = join(dir, 'keystore.json');
  const run = await runCli(['keys', 'check', path]);
  t.is(run.code, 0, 'a warning, not a problem: the store is valid where it is');
  const warnings = run.stderr.split('\n').filter((line) => line.includes(': warning: '));
  const about = (label: string) => warnings.filter((line) => line.startsWith(`${path}: warning: ${label}: `));
  t.is(about('profiles.billing.keys[0].secretFile').length, 0, 'beside the store, a name a Secret key can have');
  for (const label of [
    'profiles.billing.keys[1].secretFile',
    'profiles.billing.keys[2].secretFile',
    'profiles.reports.keys[0].secretFile',
  ]) {
    t.is(about(label).length, 1, label);
    t.regex(about(label)[0]!, /is not beside the key store: .* in the pod it would be missing/);
  }
  t.regex(about('profiles.billing.keys[3].secretFile')[0] ?? '', /not a name a Secret's key can have/);
  t.is(warnings.length, 4);
  t.true(
    run.stdout.includes(
      `kubectl -n NAMESPACE create secret generic sfd-keys --from-file=keystore.json=${path} ` +
        `--from-file=beside.secret=${join(dir, 'beside.secret')} ` +
        `--from-file=outside.secret=${join(root, 'common', 'outside.secret')} ` +
        `--from-file=nested.secret=${join(dir, 'sub', 'nested.secret')} ` +
        `--from-file=absolute.secret=${join(root, 'absolute.secret')}\n`,
    ),
    run.stdout,
  );
  t.false((run.stdout + run.stderr).includes(SECRET));
});

test('keys list FILE lists that file as keys check reads it, without settings, never a secret', async (t) => {
  const path = storeFile(
    keystoreJson({
      billing: {
        keys: [
          { accessKeyId: 'AKFILE1', secret: SECRET },
          { accessKeyId: 'AKFILE2', secret: `${SECRET}-2`, notBefore: '2099-01-01T00:00:00Z' },
        ],
      },
    }),
  );
  const json = await runCli(['keys', 'list', path, '--json']);
  t.is(json.code, 0, json.stderr);
  const rows = JSON.parse(json.stdout) as { profile: string; accessKeyId: string; current: boolean }[];
  t.deepEqual(
    rows.map((r) => [r.profile, r.accessKeyId, r.current]),
    [
      ['billing', 'AKFILE1', true],
      ['billing', 'AKFILE2', false],
    ],
  );
  const other = storeFile(keystoreJson({ other: { keys: [{ accessKeyId: 'AKOTHER', secret: SECRET }] } }));
  const human = await runCli(['keys', 'list', path], { env: { SFD_KEYSTORE_FILE: other } });
  t.is(human.code, 0, human.stderr);
  t.regex(human.stdout, /billing\s+AKFILE1\s+-\s+-\s+yes/);
  t.false(human.stdout.includes('AKOTHER'), 'the file named, not the configured store');
  const broken = storeFile(keystoreJson({ billing: { keys: [{ accessKeyId: 'AK 1', secret: SECRET }] } }));
  const refused = await runCli(['keys', 'list', broken]);
  t.is(refused.code, 1);
  t.true(refused.stderr.includes('profiles.billing.keys[0].accessKeyId: must be'), refused.stderr);
  t.false([json, human, refused].some((r) => (r.stdout + r.stderr).includes(SECRET)));
});

test('keys split makes DIR and its missing parents, for their owner only', async (t) => {
  const path = storeFile(keystoreJson({ billing: { keys: [{ accessKeyId: 'AKSPLIT', secret: SECRET }] } }));
  const root = mkdtempSync(join(tmpdir(), 'sfd-split-'));
  const dir = join(root, 'new', 'split');
  const run = await runCli(['keys', 'split', path, dir]);
  t.is(run.code, 0, run.stderr);
  for (const made of [join(root, 'new'), dir]) t.is(statSync(made).mode & 0o777, 0o700, made);
  t.is(statSync(join(dir, 'billing.json')).mode & 0o777, 0o600);
  t.false((run.stdout + run.stderr).includes(SECRET));
  const file = storeFile(keystoreJson({ billing: { keys: [{ accessKeyId: 'AKSPLIT', secret: SECRET }] } }));
  const blocked = await runCli(['keys', 'split', path, join(file, 'under-a-file')]);
  t.is(blocked.code, 1);
  t.regex(blocked.stderr, /not made \(ENOTDIR\); nothing is written/);
});

test('keys schema prints the published JSON Schema', async (t) => {
  const run = await runCli(['keys', 'schema']);
  t.is(run.code, 0);
  t.like(JSON.parse(run.stdout), { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' });
});

test('setting both a key store and a single key is a configuration error', async (t) => {
  const run = await runCli(['serve'], {
    env: { SFD_KEYSTORE_FILE: '/x.json', SFD_ACCESS_KEY_ID: 'AK1', SFD_ACCESS_KEY_SECRET: SECRET },
  });
  t.is(run.code, 2);
  t.true(
    run.stderr.includes(
      'SFD_KEYSTORE_FILE and SFD_ACCESS_KEY_ID/SFD_ACCESS_KEY_SECRET[_FILE]: set one kind of key ' +
        'configuration, not both',
    ),
  );
  t.false(run.stderr.includes(SECRET));
  const header = await runCli(['serve'], {
    env: { SFD_KEYSTORE_FILE: '/x.json', SFD_PROFILE_HEADER: 'X-SFD-Profile' },
  });
  t.true(header.stderr.includes('SFD_ALLOWED_PROFILES: required with SFD_PROFILE_HEADER'));
  const reserved = await runCli(['serve'], {
    env: { SFD_KEYSTORE_FILE: '/x.json', SFD_PROFILE_HEADER: 'Authorization', SFD_ALLOWED_PROFILES: 'a' },
  });
  t.true(
    reserved.stderr.includes(
      'SFD_PROFILE_HEADER (from the environment): must be an HTTP header name the sidecar does not set itself',
    ),
  );
});

test('SIGHUP re-reads the key store in a running sidecar', async (t) => {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([
      ['AKHUP1', { secret: Buffer.from(`${SECRET}-1`), customerId: 12345 }],
      ['AKHUP2', { secret: Buffer.from(`${SECRET}-2`), customerId: 12345 }],
    ]),
  });
  t.teardown(() => emulator.close());
  // The watched directory holds only a symlink to the real file, so editing the file raises no watch
  // event and only SIGHUP (or the hourly timer) can pick the change up.
  const real = storeFile(
    keystoreJson({ billing: { keys: [{ accessKeyId: 'AKHUP1', secret: `${SECRET}-1` }] } }),
    'real.json',
  );
  const linkDir = mkdtempSync(join(tmpdir(), 'sfd-hup-'));
  symlinkSync(real, join(linkDir, 'keystore.json'));
  const sidecar = await startCli(['serve'], /"event":"listening"/, {
    env: {
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: emulator.url,
      SFD_KEYSTORE_FILE: join(linkDir, 'keystore.json'),
      SFD_PROFILE: 'billing',
      SFD_KEYSTORE_RELOAD_INTERVAL_MS: '3600000',
    },
  });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const port = /"signing":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  const url = `http://127.0.0.1:${port}/v1.1/customer/12345`;
  t.is((await send(url)).status, 200);
  t.is(emulator.state.accepted.at(-1)?.accessKeyId, 'AKHUP1');
  // No watch event can come (see above), and the reload line's reason says SIGHUP is what read it.
  writeFileSync(real, keystoreJson({ billing: { keys: [{ accessKeyId: 'AKHUP2', secret: `${SECRET}-2` }] } }));
  sidecar.child.kill('SIGHUP');
  t.true(await eventually(() => sidecar.stdout().includes('"reason":"SIGHUP"')));
  t.is((await send(url)).status, 200);
  t.is(emulator.state.accepted.at(-1)?.accessKeyId, 'AKHUP2');
  const adminPort = /"admin":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  const samples = parseExposition((await send(`http://127.0.0.1:${adminPort}/metrics`)).body.toString());
  t.is(valueOf(samples, 'sfd_keystore_reloads_total', { result: 'success' }), 2, 'the start and the SIGHUP reload');
  t.is(valueOf(samples, 'sfd_key_current', { profile: 'billing', access_key_id: 'AKHUP2' }), 1);
  t.is(
    valueOf(samples, 'sfd_key_current', { profile: 'billing', access_key_id: 'AKHUP1' }),
    undefined,
    'the removed key is gone',
  );
  t.true((valueOf(samples, 'sfd_keystore_last_success_timestamp_seconds') ?? 0) > Date.now() / 1000 - 60);
  sidecar.child.kill('SIGTERM');
  t.is(await sidecar.exited, 0);
  t.false(sidecar.stdout().includes(SECRET));
});
