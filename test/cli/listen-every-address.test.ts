// `:PORT` binds every address of the pod: the admin listener (and the relay) answer on IPv4 and on
// IPv6, as the probes and scrapes of an IPv6 cluster reach the pod; the signing port stays on loopback,
// and when it is set elsewhere the sidecar says so at start.
import test from 'ava';
import { startCli } from '../helpers/cli-process.js';
import { send } from '../helpers/http.js';

test('with :0 the admin listener answers /healthz on 127.0.0.1 and on [::1]', async (t) => {
  const sidecar = await startCli(['serve'], /"event":"listening"/, {
    env: {
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: ':0',
      SFD_UPSTREAM_URL: 'http://127.0.0.1:9',
      SFD_ACCESS_KEY_ID: 'AKBOTH',
      SFD_ACCESS_KEY_SECRET: 'every-address-test-secret-41',
    },
  });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const admin = /"admin":"\[::\]:(\d+)"/.exec(sidecar.stdout());
  t.truthy(admin, sidecar.stdout());
  for (const host of ['127.0.0.1', '[::1]'])
    t.is((await send(`http://${host}:${admin![1]}/healthz`)).status, 200, host);
  const signing = /"signing":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  await t.throwsAsync(
    send(`http://[::1]:${signing}/v1.1/customer`),
    { code: 'ECONNREFUSED' },
    'the signing port is on IPv4 loopback only',
  );
  t.false(sidecar.stdout().includes('not on loopback'));
});

test('a signing listener off loopback starts, with a warning that says why and never shows the secret', async (t) => {
  const secret = 'every-address-test-secret-42';
  const sidecar = await startCli(['serve'], /"event":"listening"/, {
    env: {
      SFD_LISTEN: ':0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: 'http://127.0.0.1:9',
      SFD_ACCESS_KEY_ID: 'AKOPEN',
      SFD_ACCESS_KEY_SECRET: secret,
    },
  });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const warning = sidecar
    .stdout()
    .split('\n')
    .find((line) => line.includes('"event":"the signing listener is not on loopback"'));
  t.truthy(warning, sidecar.stdout());
  t.like(JSON.parse(warning!), { level: 'warn', listen: ':0' });
  t.regex(warning!, /whoever reaches this port signs with the key/);
  t.false(sidecar.stdout().includes(secret));
});
