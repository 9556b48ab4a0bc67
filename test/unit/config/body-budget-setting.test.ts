// SFD_MAX_BUFFERED_BODY_BYTES: 16 MiB by default, never below SFD_MAX_BODY_BYTES when left unset (a
// configuration that raised only the body limit keeps working), and refused when set below it.
import test from 'ava';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig, type SettingValues } from '../../../src/config/load-config.js';

const base: SettingValues = {
  SFD_UPSTREAM_URL: 'https://gw.example.com',
  SFD_ACCESS_KEY_ID: 'AK1',
  SFD_ACCESS_KEY_SECRET: 'budget-test-secret-0123456789',
};
const load = (values: SettingValues) => loadConfig({ ...base, ...values }, { production: true, readFile: () => '' });

test('unset, the budget is 16 MiB', (t) => {
  t.is(load({}).limits.maxBufferedBodyBytes, 16 * 1024 * 1024);
});

test('unset, the budget follows a larger SFD_MAX_BODY_BYTES', (t) => {
  t.is(load({ SFD_MAX_BODY_BYTES: '41943040' }).limits.maxBufferedBodyBytes, 41943040);
});

test('set, it is taken as given when it is at least SFD_MAX_BODY_BYTES', (t) => {
  t.is(load({ SFD_MAX_BUFFERED_BODY_BYTES: '1048576' }).limits.maxBufferedBodyBytes, 1048576);
  t.is(load({ SFD_MAX_BUFFERED_BODY_BYTES: '100000000' }).limits.maxBufferedBodyBytes, 100000000);
});

test('set below SFD_MAX_BODY_BYTES, it is refused with both named', (t) => {
  const error = t.throws(() => load({ SFD_MAX_BUFFERED_BODY_BYTES: '1048575' }), { instanceOf: ConfigError });
  t.regex(error.message, /SFD_MAX_BUFFERED_BODY_BYTES: must be at least SFD_MAX_BODY_BYTES \(1048576\)/);
});

test('not a whole number, it is refused with the allowed range', (t) => {
  const error = t.throws(() => load({ SFD_MAX_BUFFERED_BODY_BYTES: '32MiB' }), { instanceOf: ConfigError });
  t.regex(error.message, /SFD_MAX_BUFFERED_BODY_BYTES: must be a whole number from 1 to/);
});
