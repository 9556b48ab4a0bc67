// The quick start as a user runs it: the demo with nothing configured, the emulator command, and a
// sidecar configured by environment in front of it; SIGTERM finishes cleanly with exit 0.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startCli } from '../helpers/cli-process.js';
import { send } from '../helpers/http.js';
import { TEST_SECRET } from '../helpers/secrets.js';

const loopbackPorts = { SFD_LISTEN: '127.0.0.1:0', SFD_ADMIN_LISTEN: '127.0.0.1:0' };

test('with nothing configured, serve runs the demo and prints a curl line that works', async (t) => {
  const cwd = mkdtempSync(join(tmpdir(), 'sfd-demo-'));
  const demo = await startCli(['serve'], /curl (http:\/\/\S+)/, { cwd, env: loopbackPorts });
  t.teardown(() => demo.child.kill('SIGKILL'));
  const url = /curl (http:\/\/\S+)/.exec(demo.stderr())![1]!;
  t.regex(url, /^http:\/\/127\.0\.0\.1:\d+\/v1\.1\/customer\/12345$/);
  const answer = await send(url);
  t.is(answer.status, 200);
  t.like(answer.json(), { id: 12345, name: 'Demo Customer' });
  demo.child.kill('SIGTERM');
  t.is(await demo.exited, 0);
  t.true(demo.stdout().includes('"event":"request"'));
});

test(
  'a shell whose HTTPS_PROXY the sidecar cannot use (socks5://) still runs the quick start, with a warning that ' +
    'never shows the password',
  async (t) => {
    const cwd = mkdtempSync(join(tmpdir(), 'sfd-demo-'));
    const demo = await startCli(['serve'], /curl (http:\/\/\S+)/, {
      cwd,
      env: { ...loopbackPorts, HTTPS_PROXY: 'socks5://me:hunter2-proxy@proxy.corp:1080' },
    });
    t.teardown(() => demo.child.kill('SIGKILL'));
    const answer = await send(/curl (http:\/\/\S+)/.exec(demo.stderr())![1]!);
    t.is(answer.status, 200);
    demo.child.kill('SIGTERM');
    t.is(await demo.exited, 0);
    const warning = demo
      .stdout()
      .split('\n')
      .find((line) => line.includes("the pod's proxy setting is set aside"));
    t.truthy(warning);
    t.regex(warning!, /HTTPS_PROXY is not a proxy the sidecar can use/);
    t.false(demo.stdout().includes('hunter2-proxy') || demo.stderr().includes('hunter2-proxy'));
  },
);

test(
  'the emulator command and a sidecar configured by ' + 'environment work together; the secret never prints',
  async (t) => {
    const emulator = await startCli(
      ['emulator', '--listen', '127.0.0.1:0', '--signature-version', '1'],
      /listening on (http:\/\/\S+):/,
      {
        env: { SFD_ACCESS_KEY_ID: 'AKCLI1', SFD_ACCESS_KEY_SECRET: TEST_SECRET },
      },
    );
    t.teardown(() => emulator.child.kill('SIGKILL'));
    const upstream = /listening on (http:\/\/\S+):/.exec(emulator.stderr())![1]!;
    const sidecar = await startCli(['serve'], /"event":"listening"/, {
      env: {
        ...loopbackPorts,
        SFD_UPSTREAM_URL: upstream,
        SFD_ACCESS_KEY_ID: 'AKCLI1',
        SFD_ACCESS_KEY_SECRET: TEST_SECRET,
        SFD_SIGNATURE_VERSION: '1',
      },
    });
    t.teardown(() => sidecar.child.kill('SIGKILL'));
    const port = /"signing":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
    const answer = await send(`http://127.0.0.1:${port}/cdn/v1.0/services/1001/rateLimit`);
    t.is(answer.status, 200);
    t.deepEqual(answer.json(), { timeWindow: 30, requestLimit: 50, ignoreUrlPath: true, ignoreQueryString: true });
    sidecar.child.kill('SIGTERM');
    emulator.child.kill('SIGINT');
    t.is(await sidecar.exited, 0);
    t.is(await emulator.exited, 0);
    for (const output of [sidecar.stdout(), sidecar.stderr(), emulator.stdout(), emulator.stderr()])
      t.false(output.includes(TEST_SECRET));
  },
);
