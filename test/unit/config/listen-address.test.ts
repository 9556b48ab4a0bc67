// Listener addresses: HOST:PORT, [IPv6]:PORT, or :PORT for every address of the pod (IPv4 and IPv6),
// which is the admin listener's default: 0.0.0.0 does not reach a pod's IPv6 address.
import test from 'ava';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig, type SettingValues } from '../../../src/config/load-config.js';
import { parseListen } from '../../../src/config/parsers.js';

const base: SettingValues = {
  SFD_UPSTREAM_URL: 'https://gw.example.com',
  SFD_ACCESS_KEY_ID: 'AK1',
  SFD_ACCESS_KEY_SECRET: 'listen-test-secret-0123456789',
};
const load = (values: SettingValues) => loadConfig({ ...base, ...values }, { production: true, readFile: () => '' });

test('the three forms', (t) => {
  t.deepEqual(parseListen('127.0.0.1:8080'), { ok: true, value: { host: '127.0.0.1', port: 8080 } });
  t.deepEqual(parseListen('[::1]:8080'), { ok: true, value: { host: '::1', port: 8080 } });
  t.deepEqual(parseListen(':9090'), { ok: true, value: { host: '', port: 9090 } });
});

test('a port alone, a host alone and a port out of range are refused, naming the forms', (t) => {
  for (const raw of ['9090', 'localhost', ':', ':70000', '[::1]']) t.false(parseListen(raw).ok, raw);
  const error = t.throws(() => load({ SFD_ADMIN_LISTEN: '9090' }), { instanceOf: ConfigError });
  t.regex(error.message, /SFD_ADMIN_LISTEN: must be HOST:PORT, or :PORT for every address \(IPv4 and IPv6\)/);
});

test('the admin listener is on every address of the pod by default; the signing listener on loopback', (t) => {
  const config = load({});
  t.deepEqual(config.adminListen, { host: '', port: 9090 });
  t.deepEqual(config.listen, { host: '127.0.0.1', port: 8080 });
});
