// The SFD_* names given that are no setting, each with the setting it most likely means: what the demo
// banner names when such names are all that was given (a typo of SFD_UPSTREAM_URL starts the demo).
import { nearestName } from './nearest-name.js';

export interface IgnoredSettingName {
  readonly name: string;
  /** The setting it most likely means, or null when none is close. */
  readonly nearest: string | null;
}

/** The names given that are no setting; `known`: every setting's variable. */
export function ignoredSettingNames(
  values: Readonly<Record<string, unknown>>,
  known: readonly string[],
): IgnoredSettingName[] {
  const knownSet = new Set(known);
  return Object.keys(values)
    .filter((name) => name.startsWith('SFD_') && !knownSet.has(name))
    .map((name) => ({ name, nearest: nearestName(name, known) }));
}
