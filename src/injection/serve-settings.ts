// Every setting the injected sidecar's `serve` reads, the core's and the relay's: injection writes that
// process's environment, so it knows them all (which a settings object may set, which are secrets), in
// the registry's order, which is the order of the env entries it writes.
import { isReadBy, type SettingDefinition } from '../config/setting-definition.js';
import { LOG_SETTINGS, SIDECAR_SETTINGS } from '../config/settings.js';
import { NOTIFY_SETTINGS } from '../notify/settings/notify-settings.js';

export const SERVE_SETTINGS: readonly SettingDefinition[] = [
  ...Object.values(SIDECAR_SETTINGS),
  ...Object.values(NOTIFY_SETTINGS),
  ...Object.values(LOG_SETTINGS),
].filter((setting) => isReadBy(setting, 'serve'));
