// Rotation done the way the kubelet does it, under concurrent load: no failed request, the new key in
// use from its notBefore, broken files ignored, and the sidecar ready once a usable store appears.
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { symlinkSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import type { KeyRing } from '../../src/keys/key-ring.js';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { eventually } from '../helpers/time.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';

const A = { id: 'AKROTATEA', secret: 'rotation-secret-a-1f2e' };
const B = { id: 'AKROTATEB', secret: 'rotation-secret-b-9d8c' };

async function gatewayKnowing(t: ExecutionContext, keys: { id: string; secret: string }[]) {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map(keys.map((k) => [k.id, { secret: Buffer.from(k.secret), customerId: 12345 }])),
  });
  t.teardown(() => emulator.close());
  return emulator;
}

/** Sends requests from `workers` concurrent loops until `stop()` and returns every status seen. */
function loadUntilStopped(url: string, workers: number): { stop: () => Promise<number[]> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: workers });
  const statuses: number[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async () => {
    while (running) statuses.push((await send(url, { agent })).status);
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      agent.destroy();
      return statuses;
    },
  };
}

test('a staged rotation by the book under load fails no request and switches at notBefore', async (t) => {
  const emulator = await gatewayKnowing(t, [A, B]);
  const volume = createSecretVolume({
    'keystore.json': keystoreJson({ default: { keys: [{ accessKeyId: A.id, secret: A.secret }] } }),
  });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
  });
  const load = loadUntilStopped(`${sidecar.proxyUrl}/v1.1/customer/12345`, 8);

  const loaded = () => sidecar.logs.lines().filter((l) => l.event === 'key store loaded').length;
  t.true(await eventually(() => emulator.state.accepted.length >= 20), 'the load is running');
  const notBefore = Date.now() + 1000;
  // 1. the operator adds the new key with a future notBefore
  volume.update({
    'keystore.json': keystoreJson({
      default: {
        keys: [
          { accessKeyId: A.id, secret: A.secret },
          { accessKeyId: B.id, secret: B.secret, notBefore: new Date(notBefore).toISOString() },
        ],
      },
    }),
  });
  t.true(await eventually(() => loaded() === 2), 'the store with the new key is loaded');
  const switched = () => emulator.state.accepted.filter((a) => a.atMs >= notBefore + 50).length > 50;
  t.true(await eventually(switched, 10_000), 'requests are signed after notBefore');
  // 2. later, the old key is removed from the store, and then revoked at the gateway
  volume.update({ 'keystore.json': keystoreJson({ default: { keys: [{ accessKeyId: B.id, secret: B.secret }] } }) });
  t.true(await eventually(() => loaded() === 3), 'the store without the old key is loaded');
  emulator.state.keys.delete(A.id);
  const revokedAt = emulator.state.accepted.length;
  t.true(await eventually(() => emulator.state.accepted.length >= revokedAt + 50), 'requests after the revocation');
  const statuses = await load.stop();

  t.true(statuses.length > 200, `only ${statuses.length} requests`);
  t.deepEqual(
    statuses.filter((s) => s !== 200),
    [],
  );
  const accepted = emulator.state.accepted;
  t.true(accepted.filter((a) => a.atMs < notBefore).every((a) => a.accessKeyId === A.id));
  const afterSwitch = accepted.filter((a) => a.atMs >= notBefore + 50);
  t.true(afterSwitch.length > 50);
  t.true(afterSwitch.every((a) => a.accessKeyId === B.id));
  t.is(sidecar.logs.lines().filter((l) => l.event === 'key store loaded').length, 3);
});

test('half-written and invalid files never replace the good store; /readyz reports them', async (t) => {
  const emulator = await gatewayKnowing(t, [A, B]);
  const good = keystoreJson({ default: { keys: [{ accessKeyId: A.id, secret: A.secret }] } });
  const volume = createSecretVolume({ 'keystore.json': good });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
  });

  volume.update({ 'keystore.json': good.slice(0, good.length / 2) });
  t.true(await eventually(() => sidecar.ring.status().lastError !== null));
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
  const ready = await send(`${sidecar.adminUrl}/readyz`);
  t.is(ready.status, 200);
  t.regex(JSON.stringify(ready.json()), /not valid JSON/);

  volume.update({
    'keystore.json': keystoreJson({ default: { keys: [{ accessKeyId: 'bad id', secret: B.secret }] } }),
  });
  t.true(await eventually(() => JSON.stringify(sidecar.ring.status().lastError).includes('accessKeyId')));
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
  t.is(emulator.state.accepted.at(-1)?.accessKeyId, A.id);

  volume.update({ 'keystore.json': keystoreJson({ default: { keys: [{ accessKeyId: B.id, secret: B.secret }] } }) });
  t.true(await eventually(() => sidecar.ring.status().lastError === null));
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
  t.is(emulator.state.accepted.at(-1)?.accessKeyId, B.id);
  const logs = sidecar.logs.text();
  t.false(logs.includes(A.secret) || logs.includes(B.secret));
  t.is(
    sidecar.logs.lines().filter((l) => l.event === 'key store not loaded; keeping the last good keys').length >= 2,
    true,
  );
});

test(
  'with no usable key at start the sidecar is not ready, ' + 'refuses with NotReady, and recovers when a store appears',
  async (t) => {
    const emulator = await gatewayKnowing(t, [A]);
    const dir = mkdtempSync(join(tmpdir(), 'sfd-late-'));
    const path = join(dir, 'keystore.json');
    const sidecar = await startKeyStoreSidecar(t, { keystorePath: path, upstreamUrl: emulator.url });
    const notReady = await send(`${sidecar.adminUrl}/readyz`);
    t.is(notReady.status, 503);
    t.like(notReady.json(), { reasons: ['no key store has loaded yet'] });
    t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).json().code, 'Sidecar.NotReady');

    writeFileSync(
      path,
      keystoreJson({ default: { keys: [{ accessKeyId: A.id, secret: A.secret, notAfter: '2020-01-01T00:00:00Z' }] } }),
    );
    t.true(await eventually(() => sidecar.ring.store() !== null));
    t.like((await send(`${sidecar.adminUrl}/readyz`)).json(), { reasons: ['profile "default" has no key valid now'] });

    writeFileSync(path, keystoreJson({ default: { keys: [{ accessKeyId: A.id, secret: A.secret }] } }));
    t.true(await eventually(async () => (await send(`${sidecar.adminUrl}/readyz`)).status === 200));
    t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
  },
);

test('the timer re-reads a store whose change no watch saw', async (t) => {
  const emulator = await gatewayKnowing(t, [A, B]);
  const real = mkdtempSync(join(tmpdir(), 'sfd-real-'));
  const linkDir = mkdtempSync(join(tmpdir(), 'sfd-link-'));
  writeFileSync(
    join(real, 'store.json'),
    keystoreJson({ default: { keys: [{ accessKeyId: A.id, secret: A.secret }] } }),
  );
  symlinkSync(join(real, 'store.json'), join(linkDir, 'keystore.json'));
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: join(linkDir, 'keystore.json'),
    upstreamUrl: emulator.url,
    intervalMs: 300,
  });
  writeFileSync(
    join(real, 'store.json'),
    keystoreJson({ default: { keys: [{ accessKeyId: B.id, secret: B.secret }] } }),
  );
  t.true(await eventually(() => currentIdOf(sidecar.ring) === B.id, 2000));
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
  t.is(emulator.state.accepted.at(-1)?.accessKeyId, B.id);
});

function currentIdOf(ring: KeyRing): string | undefined {
  return ring.store()?.profiles.get('default')?.keys[0]?.key.accessKeyId;
}

test('a secret changed only in its secretFile is loaded, though the store file itself did not change', async (t) => {
  // The gateway knows A's secret; the sidecar starts with a wrong one in the file beside the store, and
  // the operator corrects only that file (the store's own text does not change).
  const emulator = await gatewayKnowing(t, [A]);
  const store = keystoreJson({ default: { keys: [{ accessKeyId: A.id, secretFile: 'a.secret' }] } });
  const volume = createSecretVolume({ 'keystore.json': store, 'a.secret': 'a-wrong-secret-0000\n' });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
  });
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 401);

  volume.update({ 'keystore.json': store, 'a.secret': `${A.secret}\n` });
  t.true(
    await eventually(async () => (await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status === 200),
    'the corrected secret is in use',
  );
  t.is(emulator.state.accepted.at(-1)?.accessKeyId, A.id);
});

test('a bad edit reverted to the very store in use clears the error /readyz reports', async (t) => {
  const emulator = await gatewayKnowing(t, [A]);
  const good = keystoreJson({ default: { keys: [{ accessKeyId: A.id, secret: A.secret }] } });
  const volume = createSecretVolume({ 'keystore.json': good });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
  });

  volume.update({ 'keystore.json': good.slice(0, good.length / 2) });
  t.true(await eventually(() => sidecar.ring.status().lastError !== null));
  t.regex(JSON.stringify((await send(`${sidecar.adminUrl}/readyz`)).json()), /lastError/);

  volume.update({ 'keystore.json': good });
  t.true(await eventually(() => sidecar.ring.status().lastError === null), 'the revert is recorded as a success');
  const ready = await send(`${sidecar.adminUrl}/readyz`);
  t.is(ready.status, 200);
  t.notRegex(JSON.stringify(ready.json()), /lastError/);
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
});
