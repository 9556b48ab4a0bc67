// Which workloads may sign as which profiles: a YAML file of entitlements, each naming a namespace,
// optionally the service accounts in it (every one when left out), the profiles they may use, and
// optionally the operations they may sign with those profiles (narrowing what the key store allows;
// `enforce: false` makes that narrowing a dry run). With a policy, a pod gets the sidecar only when
// every profile it would use (the one it signs with and each it may pick per request) is entitled to
// its namespace and service account.
import { isDnsLabel, parseObjectName } from '../../config/parsers.js';
import { isRecord } from '../../text/is-record.js';
import { PROFILE_NAME_PATTERN } from '../../config/profile-parsers.js';
import { readYamlDocument } from '../../text/yaml.js';
import {
  OPERATION_ITEM_ALLOWED,
  readOperationItem,
  sameOperationItem,
  type OperationItem,
} from '../../operations/operation-rules.js';

/** The largest policy file read: a policy of thousands of entitlements is far smaller. */
export const MAX_POLICY_BYTES = 1024 * 1024;

export interface Entitlement {
  readonly namespace: string;
  /** null: every service account of the namespace. */
  readonly serviceAccounts: readonly string[] | null;
  readonly profiles: readonly string[];
  /** The operations it may sign with those profiles; null: every one the key store allows. */
  readonly operations: readonly OperationItem[] | null;
  readonly enforce: boolean;
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

const FIELDS = new Set(['namespace', 'serviceAccounts', 'profiles', 'operations', 'enforce']);

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
      if (!FIELDS.has(key)) problems.push(`${at}: has no field "${key}" (it has ${[...FIELDS].join(', ')})`);
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
    const operations = operationsOf(entry, at, problems);
    if (entry.enforce !== undefined && typeof entry.enforce !== 'boolean')
      problems.push(`${at}.enforce: must be true or false`);
    if (namespace !== null && profiles !== null && (entry.serviceAccounts === undefined || serviceAccounts !== null))
      entitlements.push({ namespace, serviceAccounts, profiles, operations, enforce: entry.enforce !== false });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, policy: { entitlements } };
}

/** An entry's operations, each checked in its place; null when it names none. */
function operationsOf(entry: Record<string, unknown>, at: string, problems: string[]): OperationItem[] | null {
  if (entry.operations === undefined) return null;
  if (!Array.isArray(entry.operations)) {
    problems.push(`${at}.operations: must be ${OPERATION_ITEM_ALLOWED}, a list`);
    return null;
  }
  const items: OperationItem[] = [];
  entry.operations.forEach((value: unknown, index: number) => {
    const read = readOperationItem(value);
    if (read.ok) items.push(read.item);
    else problems.push(`${at}.operations[${index}]: ${read.problem}`);
  });
  return items;
}

/**
 * What the policy lets a namespace's service account sign with a profile: the union of the operations
 * of every entry that entitles it (an entry without operations grants every one: null), enforced only
 * when every such entry enforces; undefined when no entry entitles it.
 */
export function grantedOperations(
  policy: EntitlementPolicy,
  namespace: string,
  serviceAccount: string,
  profile: string,
): { readonly items: readonly OperationItem[]; readonly enforce: boolean } | null | undefined {
  const entries = policy.entitlements.filter(
    (e) =>
      e.namespace === namespace &&
      (e.serviceAccounts?.includes(serviceAccount) ?? true) &&
      e.profiles.includes(profile),
  );
  if (entries.length === 0) return undefined;
  const items: OperationItem[] = [];
  for (const entry of entries) {
    if (entry.operations === null) return null;
    for (const item of entry.operations) if (!items.some((have) => sameOperationItem(have, item))) items.push(item);
  }
  return { items, enforce: entries.every((e) => e.enforce) };
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
