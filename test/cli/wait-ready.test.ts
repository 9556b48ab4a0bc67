// `sfd-sidecar wait-ready`, the postStart hook of a classic sidecar: it returns 0 once /readyz answers
// 200, also when the sidecar starts after it; 1 when the time runs out, saying what the sidecar last
// answered, or that nothing answered at that address.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import test from 'ava';
import { freePort } from '../../bench/net-utils.js';
import { runCli, startCli } from '../helpers/cli-process.js';
import { keystoreJson } from '../helpers/keystore-stack.js';
import { eventually } from '../helpers/time.js';

const SECRET = 'wait-ready-test-secret-90ab';

function sidecarEnv(adminPort: number, keystore: string): Record<string, string> {
  return {
    SFD_LISTEN: '127.0.0.1:0',
    SFD_ADMIN_LISTEN: `127.0.0.1:${adminPort}`,
    SFD_UPSTREAM_URL: 'http://127.0.0.1:9',
    SFD_KEYSTORE_FILE: keystore,
  };
}

function storeFile(contents: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'sfd-wait-ready-')), 'keystore.json');
  writeFileSync(path, contents);
  return path;
}

test('wait-ready started before the sidecar returns 0 once the sidecar can sign', async (t) => {
  const adminPort = await freePort();
  // Until the sidecar starts, the admin port answers as a sidecar not yet ready would: wait-ready's
  // polls are seen arriving, so the sidecar starts only once wait-ready has been waiting for it.
  let polls = 0;
  const placeholder = http.createServer((_req, res) => {
    polls += 1;
    res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"status":"not ready","reasons":["starting"]}');
  });
  await new Promise<void>((resolve) => placeholder.listen(adminPort, '127.0.0.1', resolve));
  const waiting = runCli(['wait-ready', '--timeout-ms', '20000'], { env: { SFD_ADMIN_LISTEN: `:${adminPort}` } });
  t.true(await eventually(() => polls >= 2), 'wait-ready polls before the sidecar is there');
  placeholder.closeAllConnections();
  await new Promise((resolve) => placeholder.close(resolve));
  const keystore = storeFile(keystoreJson({ default: { keys: [{ accessKeyId: 'AKREADY', secret: SECRET }] } }));
  const sidecar = await startCli(['serve'], /"event":"listening"/, { env: sidecarEnv(adminPort, keystore) });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const result = await waiting;
  t.is(result.code, 0, result.stderr);
  t.regex(result.stderr, new RegExp(`http://127\\.0\\.0\\.1:${adminPort}/readyz answered 200: ready`));
});

test('wait-ready on a sidecar that cannot sign gives up after its time with the reasons /readyz gave', async (t) => {
  const adminPort = await freePort();
  const keystore = storeFile(
    keystoreJson({
      default: { keys: [{ accessKeyId: 'AKLATER', secret: SECRET, notBefore: '2099-01-01T00:00:00Z' }] },
    }),
  );
  const sidecar = await startCli(['serve'], /"event":"listening"/, { env: sidecarEnv(adminPort, keystore) });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const result = await runCli(['wait-ready', '--timeout-ms', '1000'], {
    env: { SFD_ADMIN_LISTEN: `127.0.0.1:${adminPort}` },
  });
  t.is(result.code, 1);
  t.regex(result.stderr, /not ready after 1000 ms: .*\/readyz answered 503 \(profile "default" has no key valid now\)/);
  t.false(result.stderr.includes(SECRET));
});

test('wait-ready with nothing listening gives up after its time, naming the address', async (t) => {
  const adminPort = await freePort();
  const started = Date.now();
  const result = await runCli(['wait-ready', '--timeout-ms', '1000', '--admin-listen', `[::1]:${adminPort}`]);
  t.is(result.code, 1);
  t.regex(
    result.stderr,
    new RegExp(`not ready after 1000 ms: http://\\[::1\\]:${adminPort}/readyz: (ECONNREFUSED|EADDRNOTAVAIL)`),
  );
  t.true(Date.now() - started < 10_000);
});
