// A key store or secret file swapped for something that is not a plain file (a FIFO, a symlink to
// /dev/zero, a file past its cap): the reload is refused with the problem named in /readyz, the last
// good keys stay in use, and signing and /healthz never stop answering (the test itself would hang on
// a blocked event loop, the sidecar running in its process).
import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { createSecretVolume, type SecretVolume } from '../helpers/kubelet-volume.js';

const KEY = { id: 'AKPLAIN01', secret: 'plain-file-secret-c1' };

async function sidecarOnVolume(t: ExecutionContext) {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([[KEY.id, { secret: Buffer.from(KEY.secret), customerId: 12345 }]]),
  });
  t.teardown(() => emulator.close());
  const volume = createSecretVolume({
    'keystore.json': keystoreJson({ default: { keys: [{ accessKeyId: KEY.id, secretFile: 'key.secret' }] } }),
    'key.secret': `${KEY.secret}\n`,
  });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
  });
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
  return { volume, sidecar };
}

/** Replaces a file of the volume's current data directory in place, as a hostile writer of the volume would. */
function replaceInVolume(volume: SecretVolume, name: string, make: (path: string) => void): void {
  const path = join(volume.dir, '..data', name);
  rmSync(path);
  make(path);
}

async function expectRefusedAndServing(
  t: ExecutionContext,
  sidecar: Awaited<ReturnType<typeof sidecarOnVolume>>['sidecar'],
  problem: RegExp,
) {
  await sidecar.reloader.reload('test');
  const readyz = await send(`${sidecar.adminUrl}/readyz`);
  t.is(readyz.status, 200, 'the last good keys keep the sidecar ready');
  t.regex(readyz.body.toString(), problem);
  t.is((await send(`${sidecar.adminUrl}/healthz`)).status, 200);
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200, 'signing goes on with the last good key');
}

test('a key store swapped for a FIFO is refused at once and named in /readyz', async (t) => {
  const { volume, sidecar } = await sidecarOnVolume(t);
  replaceInVolume(volume, 'keystore.json', (path) => execFileSync('mkfifo', [path]));
  await expectRefusedAndServing(t, sidecar, /keystore\.json: not a regular file but a FIFO/);
});

test('a secret file swapped for a FIFO or a symlink to /dev/zero is refused, not read without end', async (t) => {
  const { volume, sidecar } = await sidecarOnVolume(t);
  replaceInVolume(volume, 'key.secret', (path) => execFileSync('mkfifo', [path]));
  await expectRefusedAndServing(t, sidecar, /keys\[0\]\.secretFile: not a regular file but a FIFO/);
  replaceInVolume(volume, 'key.secret', (path) => symlinkSync('/dev/zero', path));
  await expectRefusedAndServing(t, sidecar, /not a regular file but a character device/);
});

test('a key store past its cap is refused with the cap named', async (t) => {
  const { volume, sidecar } = await sidecarOnVolume(t);
  replaceInVolume(volume, 'keystore.json', (path) => writeFileSync(path, ' '.repeat(2 * 1024 * 1024)));
  await expectRefusedAndServing(t, sidecar, /larger than 1 MiB/);
});
