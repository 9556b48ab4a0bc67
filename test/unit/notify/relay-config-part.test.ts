// `serve` reads the relay's settings beside the core's: a problem in either stops the start with all of
// them named at once, and the relay's listener is checked with the core's for a shared port.
import test from 'ava';
import { SERVE_CONFIG_PARTS } from '../../../src/cli/serve-config-parts.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig, type SettingValues } from '../../../src/config/load-config.js';

const base: SettingValues = {
  SFD_UPSTREAM_URL: 'https://gw.example.com',
  SFD_ACCESS_KEY_ID: 'AK1',
  SFD_ACCESS_KEY_SECRET: 'relay-part-test-secret-0123456789',
};
const relayOn: SettingValues = {
  SFD_NOTIFY_LISTEN: '127.0.0.1:8081',
  SFD_NOTIFY_FORWARD_URL: 'http://127.0.0.1:3000/hooks/sfd',
};
const load = (values: SettingValues) =>
  loadConfig({ ...base, ...values }, { production: true, readFile: () => '', parts: SERVE_CONFIG_PARTS });

test('with the relay on, serve gets its configuration beside the core', (t) => {
  const config = load({ ...relayOn, SFD_NOTIFY_TOKEN: 'token-of-twenty-chars' });
  t.deepEqual(config.notify?.listen, { host: '127.0.0.1', port: 8081 });
  t.is(config.notify?.forwardUrl.href, 'http://127.0.0.1:3000/hooks/sfd');
  t.is(config.notify?.path, '/notifications');
  t.deepEqual(config.listen, { host: '127.0.0.1', port: 8080 });
});

test('with SFD_NOTIFY_LISTEN unset the relay is off, whatever else of it is set', (t) => {
  t.is(load({ SFD_NOTIFY_FORWARD_URL: 'http://127.0.0.1:3000/hooks/sfd' }).notify, null);
});

test('a relay problem and a core problem are reported together, each setting named', (t) => {
  const error = t.throws(() => load({ ...relayOn, SFD_NOTIFY_PATH: 'no-slash', SFD_UPSTREAM_TIMEOUT_MS: 'soon' }), {
    instanceOf: ConfigError,
  });
  t.regex(error.message, /SFD_NOTIFY_PATH/);
  t.regex(error.message, /SFD_UPSTREAM_TIMEOUT_MS/);
});

test("the relay on the signing listener's port is refused, both settings named", (t) => {
  const error = t.throws(() => load({ ...relayOn, SFD_NOTIFY_LISTEN: ':8080' }), { instanceOf: ConfigError });
  t.regex(error.message, /SFD_LISTEN and SFD_NOTIFY_LISTEN: both listen on port 8080/);
});

test('the relay needs the address it forwards to', (t) => {
  const error = t.throws(() => load({ SFD_NOTIFY_LISTEN: '127.0.0.1:8081' }), { instanceOf: ConfigError });
  t.regex(error.message, /SFD_NOTIFY_FORWARD_URL: required with SFD_NOTIFY_LISTEN/);
});
