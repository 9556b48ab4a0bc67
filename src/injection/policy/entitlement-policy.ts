// Which workloads may sign as which profiles: a YAML file of entitlements, each naming a namespace,
// optionally the service accounts in it (every one when left out), and the profiles they may use.
// With a policy, a pod gets the sidecar only when every profile it would use (the one it signs with
// and each it may pick per request) is entitled to its namespace and service account.
import { isDnsLabel, parseObjectName } from '../../config/parsers.js';
import { isRecord } from '../../text/is-record.js';
import { PROFILE_NAME_PATTERN } from '../../config/profile-parsers.js';
import { readYamlDocument } from '../../text/yaml.js';

/** The largest policy file read: a policy of thousands of entitlements is far smaller. */
export const MAX_POLICY_BYTES = 1024 * 1024;

export interface Entitlement {
  readonly namespace: string;
  /** null: every service account of the namespace. */
  readonly serviceAccounts: readonly string[] | null;
  readonly profiles: readonly string[];
}

export interface EntitlementPolicy {
  readonly entitlements: readonly Entitlement[];
}

/** Who is asking: a pod template's object, its namespace and its service account. */
export interface Workload {
  readonly object: string;
  readonly namespace: string;
  readonly serviceAccount: string;
}

const FIELDS = new Set(['namespace', 'serviceAccounts', 'profiles']);

/** The policy in the text, or every problem found (the policy holds no secret: values are quoted). */
export function parseEntitlementPolicy(
  text: string,
): { ok: true; policy: EntitlementPolicy } | { ok: false; problems: string[] } {
  const read = readYamlDocument(text, { maxAliasCount: 100 });
  if (!read.ok) return { ok: false, problems: ['not valid YAML'] };
  const problems: string[] = [];
  const root = read.value;
  if (!isRecord(root) || !Array.isArray(root.entitlements))
    return { ok: false, problems: ['must be an object with "entitlements", a list'] };
  for (const key of Object.keys(root))
    if (key !== 'entitlements') problems.push(`has no field "${key}" (a policy has entitlements)`);
  const entitlements: Entitlement[] = [];
  root.entitlements.forEach((entry: unknown, index: number) => {
    const at = `entitlements[${index}]`;
    if (!isRecord(entry)) return void problems.push(`${at}: must be an object with namespace and profiles`);
    for (const key of Object.keys(entry))
      if (!FIELDS.has(key)) problems.push(`${at}: has no field "${key}" (it has namespace, serviceAccounts, profiles)`);
    const namespace = typeof entry.namespace === 'string' && isDnsLabel(entry.namespace) ? entry.namespace : null;
    if (namespace === null) problems.push(`${at}.namespace: required, a namespace name`);
    const names = (field: string, valid: (name: string) => boolean, what: string): string[] | null => {
      const value = entry[field];
      if (!Array.isArray(value) || value.length === 0 || !value.every((n) => typeof n === 'string' && valid(n))) {
        problems.push(`${at}.${field}: must be a list of one ${what} or more`);
        return null;
      }
      return value as string[];
    };
    const serviceAccounts =
      entry.serviceAccounts === undefined
        ? null
        : names('serviceAccounts', (name) => parseObjectName(name).ok, 'service account name');
    const profiles = names('profiles', (name) => PROFILE_NAME_PATTERN.test(name), 'profile name');
    if (namespace !== null && profiles !== null && (entry.serviceAccounts === undefined || serviceAccounts !== null))
      entitlements.push({ namespace, serviceAccounts, profiles });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, policy: { entitlements } };
}

/** The service account a pod runs as: the one it names, else `default`, as the API server decides. */
export function serviceAccountOf(spec: { serviceAccountName?: unknown; serviceAccount?: unknown } | undefined): string {
  const named = spec?.serviceAccountName ?? spec?.serviceAccount;
  return typeof named === 'string' && named !== '' ? named : 'default';
}

/** The profiles the policy entitles a namespace's service account to. */
export function entitledProfiles(policy: EntitlementPolicy, namespace: string, serviceAccount: string): Set<string> {
  return new Set(
    policy.entitlements
      .filter((e) => e.namespace === namespace && (e.serviceAccounts?.includes(serviceAccount) ?? true))
      .flatMap((e) => e.profiles),
  );
}

/**
 * Why the workload may not use these profiles, or null when it may. It names only what was asked and
 * denied: whoever can reach the injector can post made-up pods, and a list of what the policy grants
 * would map every namespace's entitlements for them.
 */
export function entitlementProblem(
  policy: EntitlementPolicy,
  workload: Workload,
  profiles: readonly string[],
): string | null {
  const entitled = entitledProfiles(policy, workload.namespace, workload.serviceAccount);
  const denied = profiles.filter((profile) => !entitled.has(profile));
  if (denied.length === 0) return null;
  return (
    `${workload.object} (namespace ${workload.namespace}, service account ${workload.serviceAccount}) may not use ` +
    `profile ${denied.join(', ')}: the entitlement policy does not grant ${denied.length > 1 ? 'them' : 'it'}`
  );
}
