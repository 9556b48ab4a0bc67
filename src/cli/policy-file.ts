// The entitlement policy a command is given (SFD_POLICY_FILE), read once: undefined without one; its
// problems join the configuration's, each naming the file.
import type { SettingReader } from '../config/setting-reader.js';
import { SETTINGS } from '../config/settings.js';
import { parseEntitlementPolicy, type EntitlementPolicy } from '../inject/entitlement-policy.js';

const MAX_POLICY_BYTES = 1024 * 1024;

export function readPolicyFile(r: SettingReader): EntitlementPolicy | undefined {
  const text = r.file('policyFile', MAX_POLICY_BYTES);
  if (text === null) return undefined;
  return policyFromText(text, r.problems);
}

/** The policy in the text; undefined, with its problems added to `problems`, when it has any. */
export function policyFromText(text: string, problems: string[]): EntitlementPolicy | undefined {
  const parsed = parseEntitlementPolicy(text);
  if (parsed.ok) return parsed.policy;
  problems.push(...parsed.problems.map((problem) => `${SETTINGS.policyFile.env}: ${problem}`));
  return undefined;
}
