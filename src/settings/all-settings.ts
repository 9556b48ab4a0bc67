// The registry: every feature's settings assembled into the one table help, the command line, the docs
// and the chart's values schema derive from. The order of the table is the order of the reference.
import { LOG_SETTINGS, SIDECAR_SETTINGS } from '../config/settings.js';
import type { SettingDefinition } from '../config/setting-definition.js';
import { INJECTED_SIDECAR_SETTINGS } from '../injection/injected-sidecar-settings.js';
import { INJECTOR_SETTINGS } from '../injection/injector-settings.js';
import { POLICY_SETTINGS } from '../injection/policy-settings.js';
import { NOTIFY_SETTINGS } from '../notify/settings/notify-settings.js';

export const SETTINGS = {
  ...SIDECAR_SETTINGS,
  ...NOTIFY_SETTINGS,
  ...INJECTED_SIDECAR_SETTINGS,
  ...POLICY_SETTINGS,
  ...INJECTOR_SETTINGS,
  ...LOG_SETTINGS,
};

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_LIST: readonly SettingDefinition[] = Object.values(SETTINGS);

/** Every setting's variable, for the readers that warn about SFD_* names that are none. */
export const SETTING_NAMES: readonly string[] = SETTING_LIST.map((setting) => setting.env);
