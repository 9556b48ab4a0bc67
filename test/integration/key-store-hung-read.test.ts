// A read of the key store that never ends (a network file system that stopped answering) is given up at
// its deadline: the sidecar says so, keeps signing with the last good keys, and the next change of the
// store is read and applied, rather than every later reload waiting behind the hung one.
// The sidecar's own reader refuses a FIFO at once (files-not-plain.test.ts); this test reads with Node's
// plain reader, which waits for a FIFO's writer as a hung network read waits for its server.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';
import { eventually } from '../helpers/time.js';

const A = { id: 'AKHUNGREADA', secret: 'hung-read-secret-a-3e1f' };
const B = { id: 'AKHUNGREADB', secret: 'hung-read-secret-b-7c2d' };

test('a key store read that never ends is given up at its deadline, and the next change is applied', async (t) => {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([A, B].map((k) => [k.id, { secret: Buffer.from(k.secret), customerId: 12345 }])),
  });
  t.teardown(() => emulator.close());
  const fifo = join(mkdtempSync(join(tmpdir(), 'sfd-hung-')), 'hung.secret');
  execFileSync('mkfifo', [fifo]);
  const asked: string[] = [];
  // Opening the FIFO for writing, once, lets the hung read end (with nothing), so the process can exit;
  // with no reader waiting, the open would fail instead.
  t.teardown(() => {
    if (asked.includes(fifo)) closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  });
  const volume = createSecretVolume({
    'keystore.json': keystoreJson({ default: { keys: [{ accessKeyId: A.id, secret: A.secret }] } }),
  });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
    readFile: (path) => {
      asked.push(path);
      return readFile(path, 'utf8');
    },
    stalledAfterMs: 5000,
  });
  const signedWith = async (): Promise<string | undefined> => {
    t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
    return emulator.state.accepted.at(-1)?.accessKeyId;
  };
  t.is(await signedWith(), A.id);

  volume.update({
    'keystore.json': keystoreJson({ default: { keys: [{ accessKeyId: 'AKHUNG', secretFile: fifo }] } }),
  });
  t.true(await eventually(() => asked.includes(fifo)), 'the reload reads the FIFO, and hangs there');
  volume.update({ 'keystore.json': keystoreJson({ default: { keys: [{ accessKeyId: B.id, secret: B.secret }] } }) });

  t.true(await eventually(async () => (await signedWith()) === B.id, 30_000), 'the change after the hung read');
  const notLoaded = sidecar.logs.lines().filter((line) => String(line.event).startsWith('key store not loaded'));
  t.is(notLoaded.length, 1);
  t.like(notLoaded[0], { reason: 'file change', path: volume.path('keystore.json'), keepingLastGood: true });
  t.regex(String(notLoaded[0]!.problems), /did not end in time/);
  t.is(sidecar.logs.lines().filter((line) => line.event === 'key store loaded').length, 2, 'the start, then B');
  t.false(sidecar.logs.text().includes(B.secret));
});
