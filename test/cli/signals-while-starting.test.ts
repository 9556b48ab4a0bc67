// A signal that reaches `serve` while it starts (its listeners not open yet) is handled once it runs:
// SIGHUP reloads the key store and the sidecar serves on; SIGTERM stops it cleanly. Neither ends the
// process without a word, as Node's default action for them would. Its listeners open late here
// (a preload), so that the signal surely comes while it starts.
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { startCli, type LongRunning } from '../helpers/cli-process.js';
import { send } from '../helpers/http.js';
import { keystoreJson } from '../helpers/keystore-stack.js';
import { eventually } from '../helpers/time.js';

const SECRET = 'signals-while-starting-secret-51c';
const preload = new URL('../helpers/slow-listen.js', import.meta.url).href;

interface JustStarted {
  readonly serve: LongRunning;
  /** Rewrites the key store without a file event (behind its symlink): only SIGHUP picks it up. */
  readonly rotateTo: (accessKeyId: string) => void;
  readonly lastAcceptedKey: () => string | undefined;
}

/** `serve` with a key store and a notification relay, returned while it opens its listeners. */
async function serveJustStarted(t: ExecutionContext): Promise<JustStarted> {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([
      ['AKSIG1', { secret: Buffer.from(SECRET), customerId: 12345 }],
      ['AKSIG2', { secret: Buffer.from(SECRET), customerId: 12345 }],
    ]),
  });
  t.teardown(() => emulator.close());
  const real = join(mkdtempSync(join(tmpdir(), 'sfd-signals-')), 'real.json');
  const rotateTo = (accessKeyId: string): void =>
    writeFileSync(real, keystoreJson({ default: { keys: [{ accessKeyId, secret: SECRET }] } }));
  rotateTo('AKSIG1');
  const linkDir = mkdtempSync(join(tmpdir(), 'sfd-signals-link-'));
  symlinkSync(real, join(linkDir, 'keystore.json'));
  const serve = await startCli(['serve'], /^slow-listen: /m, {
    env: {
      NODE_OPTIONS: `--import=${preload}`,
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_NOTIFY_LISTEN: '127.0.0.1:0',
      SFD_NOTIFY_FORWARD_URL: 'http://127.0.0.1:9/hooks',
      SFD_UPSTREAM_URL: emulator.url,
      SFD_KEYSTORE_FILE: join(linkDir, 'keystore.json'),
      SFD_KEYSTORE_RELOAD_INTERVAL_MS: '3600000',
    },
  });
  t.teardown(() => serve.child.kill('SIGKILL'));
  return { serve, rotateTo, lastAcceptedKey: () => emulator.state.accepted.at(-1)?.accessKeyId };
}

test('a SIGHUP while serve starts reloads the key store once it runs; the sidecar serves on', async (t) => {
  const { serve, rotateTo, lastAcceptedKey } = await serveJustStarted(t);
  rotateTo('AKSIG2');
  serve.child.kill('SIGHUP');
  t.true(await eventually(() => serve.stdout().includes('"reason":"SIGHUP"'), 10_000), serve.stdout());
  t.is(serve.child.exitCode, null, 'still running');
  t.is(serve.child.signalCode, null, 'not ended by the signal');
  const port = /"signing":"127\.0\.0\.1:(\d+)"/.exec(serve.stdout())![1]!;
  t.is((await send(`http://127.0.0.1:${port}/v1.1/customer/12345`)).status, 200);
  t.is(lastAcceptedKey(), 'AKSIG2', 'signed with the key the reload read');
  serve.child.kill('SIGTERM');
  t.is(await serve.exited, 0);
});

test('a SIGTERM while serve starts stops it cleanly once it runs, with its shutdown line', async (t) => {
  const { serve } = await serveJustStarted(t);
  serve.child.kill('SIGTERM');
  t.is(await serve.exited, 0, serve.stderr());
  t.regex(serve.stdout(), /"signal":"SIGTERM".*"event":"shutting down"/);
  t.regex(serve.stdout(), /"event":"stopped"/);
});
