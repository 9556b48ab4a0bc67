// SFD_* variables that are no setting: a misspelt one (SFD_SIGNATURE_VERISON) would otherwise be
// ignored without a word and the sidecar start as if it were not there. They are warnings, not errors:
// other tools may share the prefix. The variables the kubelet writes for a Service whose name starts
// with `sfd-` are no one's mistake and are passed over. Also the dotenv file's lines that are not
// NAME=value.
import { nearestName, suggesting } from './nearest-name.js';
import { isServiceLink } from './service-links.js';
import type { MergedSettings, SettingSource } from './setting-sources.js';

export interface UnknownSettingName {
  readonly name: string;
  /** The setting it most likely means, or null when none is close. */
  readonly nearest: string | null;
  readonly source: SettingSource;
}

/**
 * The SFD_* names given that are no setting (`known`: every setting's variable), each with the setting
 * it most likely means: the warnings name them, and so does the demo banner when they are all that was
 * given (a typo of SFD_UPSTREAM_URL starts the demo).
 */
export function unknownSettingNames(
  merged: Pick<MergedSettings, 'values' | 'sources'>,
  known: readonly string[],
): UnknownSettingName[] {
  const knownSet = new Set(known);
  return Object.keys(merged.values).flatMap((name): UnknownSettingName[] => {
    if (!name.startsWith('SFD_') || knownSet.has(name)) return [];
    const source = merged.sources[name] ?? 'environment';
    if (source === 'environment' && isServiceLink(name, String(merged.values[name] ?? ''))) return [];
    return [{ name, nearest: nearestName(name, known), source }];
  });
}

/**
 * Each SFD_* variable that is not a setting (`known`: every setting's variable), and each unread dotenv
 * line, as a sentence.
 */
export function settingWarnings(merged: MergedSettings, known: readonly string[]): string[] {
  const warnings = unknownSettingNames(merged, known).map(
    ({ name, nearest, source }) =>
      `${name} (from the ${source}) is not a setting of sfd-sidecar and is ignored${suggesting(nearest)}`,
  );
  if (merged.unreadDotenvLines.length > 0) {
    const lines = merged.unreadDotenvLines;
    warnings.push(
      `${merged.dotenvFile}: line${lines.length === 1 ? '' : 's'} ${lines.join(', ')} ` +
        `${lines.length === 1 ? 'is' : 'are'} not NAME=value and ${lines.length === 1 ? 'was' : 'were'} skipped`,
    );
  }
  return warnings;
}
