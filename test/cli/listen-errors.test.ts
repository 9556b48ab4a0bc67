// A listener that cannot bind stops `serve` with exit code 1 and one line that names the setting, the
// address and the reason in words, without a stack trace; no other listener is left behind.
import net from 'node:net';
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import { TEST_SECRET } from '../helpers/secrets.js';

/** A port on loopback that another server holds for the test's lifetime. */
async function occupiedPort(t: { teardown(fn: () => void): void }): Promise<number> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.teardown(() => holder.close());
  return (holder.address() as net.AddressInfo).port;
}

const configured = {
  SFD_UPSTREAM_URL: 'http://127.0.0.1:9',
  SFD_ACCESS_KEY_ID: 'AKLISTEN1',
  SFD_ACCESS_KEY_SECRET: TEST_SECRET,
};

for (const setting of ['SFD_LISTEN', 'SFD_ADMIN_LISTEN', 'SFD_NOTIFY_LISTEN'] as const) {
  test(`an address in use for ${setting} is named with its setting, and serve exits 1`, async (t) => {
    const port = await occupiedPort(t);
    const env: Record<string, string> = {
      ...configured,
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      [setting]: `127.0.0.1:${port}`,
    };
    if (setting === 'SFD_NOTIFY_LISTEN') env.SFD_NOTIFY_FORWARD_URL = 'http://127.0.0.1:3000/hooks/sfd';
    const result = await runCli(['serve'], { env });
    t.is(result.code, 1);
    t.is(
      result.stderr,
      `sfd-sidecar serve: cannot listen on 127.0.0.1:${port} (${setting}): the address is already in use ` +
        `(another process, or another container of the pod, listens there)\n`,
    );
    t.false(result.stdout.includes(TEST_SECRET));
  });
}

test('an address no interface has is named as such', async (t) => {
  const result = await runCli(['serve'], {
    env: { ...configured, SFD_LISTEN: '192.0.2.1:8080', SFD_ADMIN_LISTEN: '127.0.0.1:0' },
  });
  t.is(result.code, 1);
  t.is(
    result.stderr,
    'sfd-sidecar serve: cannot listen on 192.0.2.1:8080 (SFD_LISTEN): no network interface of this host has ' +
      'that address\n',
  );
});

test('the emulator command names its --listen flag', async (t) => {
  const port = await occupiedPort(t);
  const result = await runCli(['emulator', '--listen', `127.0.0.1:${port}`]);
  t.is(result.code, 1);
  t.regex(
    result.stderr,
    new RegExp(
      `^sfd-sidecar emulator: cannot listen on 127\\.0\\.0\\.1:${port} \\(--listen\\): the address is already in use`,
    ),
  );
});
