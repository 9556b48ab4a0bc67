// A broken key store is warned about once per broken state, whatever else changes beside it: files that
// are not the store's own never trigger a reload, the same broken files read again (the timer, SIGHUP)
// are not warned again, and each warning says where in which file the problem is, quoting none of it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { send } from '../helpers/http.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { eventually, sleep } from '../helpers/time.js';

const KEY = { id: 'AKWARNONCE', secret: 'warn-once-secret-5a7b9c' };
const GOOD = keystoreJson({ default: { keys: [{ accessKeyId: KEY.id, secret: KEY.secret }] } });
/** The store with a trailing comma after the secret: JSON.parse refuses it, YAML's flow style would not. */
const TRAILING_COMMA = GOOD.replace(`"${KEY.secret}"`, `"${KEY.secret}",`);
/** The store with the secret in single quotes. */
const SINGLE_QUOTES = GOOD.replace(`"${KEY.secret}"`, `'${KEY.secret}'`);
const NOT_LOADED = /^key store not loaded/;

async function emulatorFor(t: ExecutionContext) {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([[KEY.id, { secret: Buffer.from(KEY.secret), customerId: 12345 }]]),
  });
  t.teardown(() => emulator.close());
  return emulator;
}

test('a broken store beside a file that keeps changing is read and warned about once', async (t) => {
  const emulator = await emulatorFor(t);
  const dir = mkdtempSync(join(tmpdir(), 'sfd-warn-once-'));
  const store = join(dir, 'keystore.json');
  writeFileSync(store, GOOD);
  const sidecar = await startKeyStoreSidecar(t, { keystorePath: store, upstreamUrl: emulator.url });
  const reloads: string[] = [];
  sidecar.ring.onChange((result) => reloads.push(result));
  writeFileSync(store, TRAILING_COMMA);
  t.true(await eventually(() => reloads.length === 1));
  // A log file, a lock, a cache: anything else in the folder changes often. Each write is spaced beyond
  // the reloader's debounce, so that a reload per event would show as one per write.
  for (let index = 0; index < 15; index += 1) {
    writeFileSync(join(dir, 'app.log'), `line ${index}\n`, { flag: 'a' });
    await sleep(80);
  }
  writeFileSync(store, SINGLE_QUOTES);
  t.true(await eventually(() => reloads.length === 2));
  t.deepEqual(reloads, ['failure', 'failure']);
  const warnings = sidecar.logs.lines().filter((line) => NOT_LOADED.test(String(line.event)));
  t.is(warnings.length, 2);
  t.like(warnings[0], { reason: 'file change', path: store, keepingLastGood: true });
  t.regex(String(warnings[0]!.problems), /^\(file\): not valid JSON at line 1, column \d+: /);
  t.regex(String(warnings[1]!.problems), /^\(file\): not valid JSON at line 1, column \d+: a character JSON does not/);
  t.false(sidecar.logs.text().includes(KEY.secret));
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200, 'the last good keys still sign');
});

test('the same broken files read again are not warned again; a new breakage or a recovery is', async (t) => {
  const emulator = await emulatorFor(t);
  const volume = createSecretVolume({ 'keystore.json': GOOD });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
  });
  const notLoaded = () => sidecar.logs.lines().filter((line) => NOT_LOADED.test(String(line.event))).length;
  const loaded = () => sidecar.logs.lines().filter((line) => line.event === 'key store loaded').length;

  volume.update({ 'keystore.json': TRAILING_COMMA });
  t.true(await eventually(() => notLoaded() === 1));
  for (const reason of ['timer', 'SIGHUP', 'timer']) t.is(await sidecar.reloader.reload(reason), 'failure');
  t.is(notLoaded(), 1);

  volume.update({ 'keystore.json': SINGLE_QUOTES });
  t.true(await eventually(() => notLoaded() === 2));
  t.is(await sidecar.reloader.reload('timer'), 'failure');
  t.is(notLoaded(), 2);

  volume.update({ 'keystore.json': GOOD });
  t.true(await eventually(() => loaded() === 2));
  volume.update({ 'keystore.json': SINGLE_QUOTES });
  t.true(await eventually(() => notLoaded() === 3), 'the same breakage after a good store is warned again');
  t.false(sidecar.logs.text().includes(KEY.secret));
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
});
