// A key store shared by many applications: a sidecar's /metrics, /readyz and log name the profiles it may
// sign with (SFD_PROFILE and SFD_ALLOWED_PROFILES) and their key ids, never another tenant's, also after a
// reload brings a new profile into the store.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startCli } from '../helpers/cli-process.js';
import { parseExposition, type Sample } from '../helpers/exposition.js';
import { send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { eventually } from '../helpers/time.js';

const DAY_MS = 86_400_000;
/** Within the expiry warning window (7 days in keystore-stack), so that every key is warned of. */
const soon = (): string => new Date(Date.now() + 2 * DAY_MS).toISOString();
const later = (): string => new Date(Date.now() + DAY_MS).toISOString();

const key = (accessKeyId: string, extra: Record<string, string> = {}) => ({
  accessKeyId,
  secret: `secret-of-${accessKeyId}-never-shown`,
  notAfter: soon(),
  ...extra,
});

/** The sidecar's own profile, with a current key and one staged for later. */
const shop = () => ({ keys: [key('AKSHOPNOW'), key('AKSHOPNEXT', { notBefore: later() })] });
const billing = () => ({ keys: [key('AKBILLING')] });
const reports = () => ({ keys: [key('AKREPORTSA'), key('AKREPORTSB')] });
const audit = () => ({ keys: [key('AKAUDIT')] });
const OWN_KEY_IDS = ['AKSHOPNOW', 'AKSHOPNEXT', 'AKBILLING'];
const OTHER_TENANTS = ['reports', 'AKREPORTSA', 'AKREPORTSB', 'audit', 'AKAUDIT'];

const KEY_SERIES = ['sfd_key_current', 'sfd_key_not_after_timestamp_seconds'];

/** Each key series as `name profile/access_key_id`, sorted. */
function keySeries(samples: readonly Sample[]): string[] {
  return samples
    .filter((s) => KEY_SERIES.includes(s.name))
    .map((s) => `${s.name} ${s.labels.profile}/${s.labels.access_key_id}`)
    .sort();
}

const EXPECTED_SERIES = KEY_SERIES.flatMap((name) =>
  ['billing/AKBILLING', 'shop/AKSHOPNEXT', 'shop/AKSHOPNOW'].map((k) => `${name} ${k}`),
).sort();

test("a sidecar's metrics and log show the profiles it signs with, never another tenant of the store", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-tenants-'));
  const path = join(dir, 'keystore.json');
  writeFileSync(path, keystoreJson({ shop: shop(), billing: billing(), reports: reports() }));
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: path,
    upstreamUrl: 'http://127.0.0.1:9',
    defaultProfile: 'shop',
    profileHeader: 'X-SFD-Profile',
    allowedProfiles: new Set(['billing']),
  });

  const scrape = async (): Promise<{ text: string; samples: Sample[] }> => {
    const answer = await send(`${sidecar.adminUrl}/metrics`);
    t.is(answer.status, 200);
    const text = answer.body.toString();
    return { text, samples: parseExposition(text) };
  };
  const first = await scrape();
  t.deepEqual(keySeries(first.samples), EXPECTED_SERIES);
  for (const name of OTHER_TENANTS) t.false(first.text.includes(name), `${name} is not in /metrics`);
  t.deepEqual(
    first.samples
      .filter((s) => s.name === 'sfd_key_current' && s.value === 1)
      .map((s) => s.labels.access_key_id)
      .sort(),
    ['AKBILLING', 'AKSHOPNOW'],
  );

  writeFileSync(path, keystoreJson({ shop: shop(), billing: billing(), reports: reports(), audit: audit() }));
  t.is(await sidecar.reloader.reload('test'), 'success');
  t.is(sidecar.ring.store()?.profiles.size, 4, 'the fourth profile is loaded');
  const second = await scrape();
  t.deepEqual(keySeries(second.samples), EXPECTED_SERIES);
  for (const name of OTHER_TENANTS) t.false(second.text.includes(name), `${name} is not in /metrics after the reload`);

  const logs = sidecar.logs.text();
  const warned = sidecar.logs
    .lines()
    .filter((l) => l.event === 'key expires soon')
    .map((l) => `${String(l.profile)}/${String(l.accessKeyId)}`);
  t.deepEqual(new Set(warned), new Set(['shop/AKSHOPNOW', 'shop/AKSHOPNEXT', 'billing/AKBILLING']));
  for (const id of OTHER_TENANTS.filter((n) => n.startsWith('AK'))) t.false(logs.includes(id), `${id} is not logged`);
  for (const id of [...OWN_KEY_IDS, ...OTHER_TENANTS]) t.false(logs.includes(`secret-of-${id}`), 'no secret is logged');
});

test("a broken store names where another tenant's key is wrong, not its key id", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-tenants-'));
  const path = join(dir, 'keystore.json');
  writeFileSync(path, keystoreJson({ shop: shop(), reports: reports() }));
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: path,
    upstreamUrl: 'http://127.0.0.1:9',
    defaultProfile: 'shop',
  });

  // The other tenant lists one of its keys twice: the whole store is refused, the last good one kept.
  writeFileSync(path, keystoreJson({ shop: shop(), reports: { keys: [key('AKREPORTSA'), key('AKREPORTSA')] } }));
  t.is(await sidecar.reloader.reload('test'), 'failure');
  const ready = await send(`${sidecar.adminUrl}/readyz`);
  const problems = JSON.stringify(ready.json());
  t.regex(problems, /profiles\.reports\.keys\[1\]\.accessKeyId/);
  t.false(problems.includes('AKREPORTSA'), problems);
  t.false(sidecar.logs.text().includes('AKREPORTSA'));
});

test('the serve command keeps other tenants out of its metrics and log, through a SIGHUP reload', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-tenants-'));
  const path = join(dir, 'keystore.json');
  writeFileSync(path, keystoreJson({ shop: shop(), billing: billing(), reports: reports() }));
  const sidecar = await startCli(['serve'], /"event":"listening"/, {
    env: {
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: 'http://127.0.0.1:9',
      SFD_KEYSTORE_FILE: path,
      SFD_PROFILE: 'shop',
      SFD_PROFILE_HEADER: 'X-SFD-Profile',
      SFD_ALLOWED_PROFILES: 'billing',
      SFD_KEYSTORE_RELOAD_INTERVAL_MS: '3600000',
    },
  });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const adminPort = /"admin":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  const scrape = async (): Promise<string> => (await send(`http://127.0.0.1:${adminPort}/metrics`)).body.toString();
  t.deepEqual(keySeries(parseExposition(await scrape())), EXPECTED_SERIES);

  writeFileSync(path, keystoreJson({ shop: shop(), billing: billing(), reports: reports(), audit: audit() }));
  sidecar.child.kill('SIGHUP');
  t.true(await eventually(() => sidecar.stdout().includes('"reason":"SIGHUP"')));
  const text = await scrape();
  t.deepEqual(keySeries(parseExposition(text)), EXPECTED_SERIES);
  sidecar.child.kill('SIGTERM');
  t.is(await sidecar.exited, 0);
  const output = sidecar.stdout() + sidecar.stderr();
  t.regex(output, /"accessKeyId":"AKSHOPNOW".*"event":"key expires soon"/);
  for (const name of OTHER_TENANTS.filter((n) => n.startsWith('AK'))) {
    t.false(text.includes(name), `${name} is not in /metrics`);
    t.false(output.includes(name), `${name} is not logged`);
  }
  t.false(output.includes('secret-of-'), 'no secret is logged');
});
