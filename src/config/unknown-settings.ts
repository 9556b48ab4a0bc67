// SFD_* variables that are no setting: a misspelt one (SFD_SIGNATURE_VERISON) would otherwise be
// ignored without a word and the sidecar start as if it were not there. They are warnings, not errors:
// other tools may share the prefix. Also the dotenv file's lines that are not NAME=value.
import { didYouMean } from './nearest-name.js';
import type { MergedSettings } from './setting-sources.js';
import { SETTING_LIST } from './settings.js';

const KNOWN = SETTING_LIST.map((s) => s.env);
const KNOWN_SET = new Set<string>(KNOWN);

/** Each SFD_* variable that is not a setting, and each unread dotenv line, as a sentence. */
export function settingWarnings(merged: MergedSettings): string[] {
  const warnings: string[] = [];
  for (const name of Object.keys(merged.values)) {
    if (!name.startsWith('SFD_') || KNOWN_SET.has(name)) continue;
    warnings.push(
      `${name} (from the ${merged.sources[name] ?? 'environment'}) is not a setting of sfd-sidecar and is ` +
        `ignored${didYouMean(name, KNOWN)}`,
    );
  }
  if (merged.unreadDotenvLines.length > 0) {
    const lines = merged.unreadDotenvLines;
    warnings.push(
      `${merged.dotenvFile}: line${lines.length === 1 ? '' : 's'} ${lines.join(', ')} ` +
        `${lines.length === 1 ? 'is' : 'are'} not NAME=value and ${lines.length === 1 ? 'was' : 'were'} skipped`,
    );
  }
  return warnings;
}
