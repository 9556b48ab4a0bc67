// Injection writes the sidecar's environment from its own list of what `serve` reads; a feature that
// adds a setting `serve` reads without joining that list would be a setting no settings object could
// set and the admission policy would refuse on a sidecar.
import test from 'ava';
import { isReadBy } from '../../../src/config/setting-definition.js';
import { SERVE_SETTINGS } from '../../../src/injection/serve-settings.js';
import { SETTING_LIST } from '../../../src/settings/all-settings.js';

test("injection's list of what serve reads is the registry's, every feature's included", (t) => {
  const registry = SETTING_LIST.filter((setting) => isReadBy(setting, 'serve')).map((setting) => setting.env);
  t.deepEqual(
    SERVE_SETTINGS.map((setting) => setting.env),
    registry,
  );
  t.true(registry.includes('SFD_NOTIFY_LISTEN'), 'the relay is read by serve');
});
