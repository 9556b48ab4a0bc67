// The per-profile key store layout end to end: `keys split` makes one file per profile with its
// secrets inline (never printing one), `inject --keystore-layout per-profile` mounts only the files of
// the profiles a pod uses, and the sidecar reads such a directory (the kubelet's Secret volume) and
// follows a rotation of one profile's file under load without a failed request.
import http from 'node:http';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import { send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { startKeyedEmulator } from '../helpers/stack.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';
import { eventually } from '../helpers/time.js';

const BILLING_OLD = { id: 'AKBILLOLD', secret: 'per-profile-billing-old-51a7' };
const BILLING_NEW = { id: 'AKBILLNEW', secret: 'per-profile-billing-new-62b8' };
const REPORTS = { id: 'AKREPORTS', secret: 'per-profile-reports-73c9' };
const GATEWAY_KEYS = Object.fromEntries([BILLING_OLD, BILLING_NEW, REPORTS].map((k) => [k.id, k.secret]));

test('keys split writes one owner-only file per profile, secrets inline, and prints none', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-split-'));
  writeFileSync(join(dir, 'reports.secret'), `${REPORTS.secret}\n`);
  writeFileSync(
    join(dir, 'keystore.yaml'),
    [
      'profiles:',
      '  billing:',
      '    upstreamUrl: https://billing.example.com',
      `    keys: [{accessKeyId: ${BILLING_OLD.id}, secret: ${BILLING_OLD.secret}}]`,
      '  reports:',
      `    keys: [{accessKeyId: ${REPORTS.id}, secretFile: reports.secret}]`,
      '',
    ].join('\n'),
  );
  const out = mkdtempSync(join(tmpdir(), 'sfd-split-out-'));
  const run = await runCli(['keys', 'split', join(dir, 'keystore.yaml'), out]);
  t.is(run.code, 0, run.stderr);
  for (const secret of [BILLING_OLD.secret, REPORTS.secret]) t.false((run.stdout + run.stderr).includes(secret));
  t.regex(run.stderr, /wrote 2 files .*: billing\.json, reports\.json/);
  const reports = JSON.parse(readFileSync(join(out, 'reports.json'), 'utf8')) as unknown;
  t.deepEqual(reports, { profiles: { reports: { keys: [{ accessKeyId: REPORTS.id, secret: REPORTS.secret }] } } });
  t.is(statSync(join(out, 'billing.json')).mode & 0o777, 0o600);
  const check = await runCli(['keys', 'check', join(out, 'billing.json')]);
  t.regex(check.stdout, /valid, 1 profile, 1 key/);
  const again = await runCli(['keys', 'split', join(dir, 'keystore.yaml'), out]);
  t.is(again.code, 1);
  t.regex(again.stderr, /not written \(EEXIST\); nothing is overwritten/);
});

test('inject with the per-profile layout mounts only the files of the profiles the pod uses', async (t) => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web',
      annotations: {
        'sfd-sidecar.io/profile': 'billing',
        'sfd-sidecar.io/allowed-profiles': 'billing,reports',
        'sfd-sidecar.io/profile-header': 'X-Pick',
      },
    },
    spec: { containers: [{ name: 'web', image: 'example/web:1' }] },
  };
  const run = await runCli(['inject', '--keystore-secret', 'sfd-keys', '--keystore-layout', 'per-profile', '-'], {
    input: JSON.stringify(pod),
  });
  t.is(run.code, 0, run.stderr);
  const injected = parse(run.stdout) as {
    spec: {
      volumes: { name: string; secret: { secretName: string; items?: unknown } }[];
      initContainers: { env: { name: string; value?: string }[] }[];
    };
  };
  t.deepEqual(injected.spec.volumes[0]!.secret.items, [
    { key: 'billing.json', path: 'billing.json' },
    { key: 'reports.json', path: 'reports.json' },
  ]);
  const env = Object.fromEntries(injected.spec.initContainers[0]!.env.map((e) => [e.name, e.value]));
  t.is(env.SFD_KEYSTORE_FILE, '/etc/sfd-sidecar/keys');
});

test('a directory of per-profile files: a profile in two files is refused, naming both', async (t) => {
  const emulator = await startKeyedEmulator(t, GATEWAY_KEYS);
  const store = (id: string, secret: string) => keystoreJson({ billing: { keys: [{ accessKeyId: id, secret }] } });
  const volume = createSecretVolume({
    'billing.json': store(BILLING_OLD.id, BILLING_OLD.secret),
    'copy.json': store(BILLING_NEW.id, BILLING_NEW.secret),
  });
  const sidecar = await startKeyStoreSidecar(t, { keystorePath: volume.dir, upstreamUrl: emulator.url });
  t.regex(JSON.stringify(sidecar.ring.status().lastError), /copy\.json: profile billing is also in another file/);
});

test('rotating one profile file of a per-profile directory under load fails no request', async (t) => {
  const emulator = await startKeyedEmulator(t, GATEWAY_KEYS);
  const billing = (keys: Record<string, string>[]) => keystoreJson({ billing: { keys } });
  const volume = createSecretVolume({
    'billing.json': billing([{ accessKeyId: BILLING_OLD.id, secret: BILLING_OLD.secret }]),
    'reports.json': keystoreJson({ reports: { keys: [{ accessKeyId: REPORTS.id, secret: REPORTS.secret }] } }),
  });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.dir,
    upstreamUrl: emulator.url,
    defaultProfile: 'billing',
  });
  const loaded = () => sidecar.logs.lines().filter((l) => l.event === 'key store loaded').length;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  t.teardown(() => agent.destroy());
  const statuses: number[] = [];
  let running = true;
  const loops = Array.from({ length: 8 }, async () => {
    while (running) statuses.push((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`, { agent })).status);
  });
  t.true(await eventually(() => emulator.state.accepted.length >= 20), 'the load is running');
  const notBefore = Date.now() + 500;
  volume.update({
    'billing.json': billing([
      { accessKeyId: BILLING_OLD.id, secret: BILLING_OLD.secret },
      { accessKeyId: BILLING_NEW.id, secret: BILLING_NEW.secret, notBefore: new Date(notBefore).toISOString() },
    ]),
    'reports.json': keystoreJson({ reports: { keys: [{ accessKeyId: REPORTS.id, secret: REPORTS.secret }] } }),
  });
  t.true(await eventually(() => loaded() === 2), 'the rotated file is loaded');
  // Signed after notBefore, by the X-SFD-Date the emulator read (whole seconds, so a second later):
  // however loaded the machine, a request signed then must carry the new key.
  const settled = notBefore + 1000;
  const after = () => emulator.state.accepted.filter((a) => a.signedAtMs >= settled).length;
  t.true(await eventually(() => after() >= 50, 10_000), 'requests signed after notBefore');
  running = false;
  await Promise.all(loops);
  t.deepEqual(
    statuses.filter((s) => s !== 200),
    [],
  );
  t.true(emulator.state.accepted.filter((a) => a.signedAtMs >= settled).every((a) => a.accessKeyId === BILLING_NEW.id));
});

test('keys check and keys list read a per-profile directory as the sidecar does', async (t) => {
  const volume = createSecretVolume({
    'billing.json': keystoreJson({ billing: { keys: [{ accessKeyId: BILLING_OLD.id, secret: BILLING_OLD.secret }] } }),
    'reports.json': keystoreJson({ reports: { keys: [{ accessKeyId: REPORTS.id, secret: REPORTS.secret }] } }),
  });
  const check = await runCli(['keys', 'check', volume.dir]);
  t.is(check.code, 0, check.stderr);
  t.regex(check.stdout, /valid, 2 profiles, 2 keys/);
  const list = await runCli(['keys', 'list', '--json'], { env: { SFD_KEYSTORE_FILE: volume.dir } });
  t.is(list.code, 0, list.stderr);
  const rows = JSON.parse(list.stdout) as { profile: string; accessKeyId: string }[];
  t.deepEqual(rows.map((r) => `${r.profile}/${r.accessKeyId}`).sort(), [
    `billing/${BILLING_OLD.id}`,
    `reports/${REPORTS.id}`,
  ]);
  t.false((check.stdout + check.stderr + list.stdout + list.stderr).includes(BILLING_OLD.secret));
});
