// SFD_* variables that are no setting: a misspelt one (SFD_SIGNATURE_VERISON) would otherwise be
// ignored without a word and the sidecar start as if it were not there. They are warnings, not errors:
// other tools may share the prefix. The variables the kubelet writes for a Service whose name starts
// with `sfd-` are no one's mistake and are passed over. Also the dotenv file's lines that are not
// NAME=value.
import { didYouMean } from './nearest-name.js';
import { isServiceLink } from './service-links.js';
import type { MergedSettings } from './setting-sources.js';

/**
 * Each SFD_* variable that is not a setting (`known`: every setting's variable), and each unread dotenv
 * line, as a sentence.
 */
export function settingWarnings(merged: MergedSettings, known: readonly string[]): string[] {
  const knownSet = new Set(known);
  const warnings: string[] = [];
  for (const name of Object.keys(merged.values)) {
    if (!name.startsWith('SFD_') || knownSet.has(name)) continue;
    const fromKubelet = (merged.sources[name] ?? 'environment') === 'environment';
    if (fromKubelet && isServiceLink(name, String(merged.values[name] ?? ''))) continue;
    warnings.push(
      `${name} (from the ${merged.sources[name] ?? 'environment'}) is not a setting of sfd-sidecar and is ` +
        `ignored${didYouMean(name, known)}`,
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
