// The SFD_* names given that are no setting, each with the setting it most likely means: what the demo
// banner names when such names are all that was given (a typo of SFD_UPSTREAM_URL starts the demo).
import { nearestName } from './nearest-name.js';
import { SETTING_LIST } from './settings.js';

const KNOWN = SETTING_LIST.map((s) => s.env);
const KNOWN_SET = new Set<string>(KNOWN);

export interface IgnoredSettingName {
  readonly name: string;
  /** The setting it most likely means, or null when none is close. */
  readonly nearest: string | null;
}

export function ignoredSettingNames(values: Readonly<Record<string, unknown>>): IgnoredSettingName[] {
  return Object.keys(values)
    .filter((name) => name.startsWith('SFD_') && !KNOWN_SET.has(name))
    .map((name) => ({ name, nearest: nearestName(name, KNOWN) }));
}
