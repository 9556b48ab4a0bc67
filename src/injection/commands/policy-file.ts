// The entitlement policy a command is given (SFD_POLICY_FILE), read once: undefined without one; its
// problems join the configuration's, each naming the setting. The text comes back with the policy, so
// that a watcher of the file starts from what was read.
import type { SettingReader } from '../../config/setting-reader.js';
import { MAX_POLICY_BYTES, parseEntitlementPolicy, type EntitlementPolicy } from '../policy/entitlement-policy.js';
import { POLICY_SETTINGS } from '../policy-settings.js';

export interface PolicyFile {
  readonly path: string;
  readonly text: string;
  readonly policy: EntitlementPolicy;
}

export function readPolicyFile(r: SettingReader): PolicyFile | undefined {
  const text = r.file(POLICY_SETTINGS.policyFile, MAX_POLICY_BYTES);
  if (text === null) return undefined;
  const parsed = parseEntitlementPolicy(text);
  if (parsed.ok) return { path: r.raw(POLICY_SETTINGS.policyFile)!.trim(), text, policy: parsed.policy };
  r.problems.push(...parsed.problems.map((problem) => `${POLICY_SETTINGS.policyFile.env}: ${problem}`));
  return undefined;
}
