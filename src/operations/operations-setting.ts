// SFD_OPERATIONS: the operations each profile of an injected sidecar may sign, as the injection writes
// it from the entitlement policy and the pod's annotation. JSON, one member per profile the pod may
// sign with: `"*"` for no narrowing, or `{"operations": [...], "enforce": false}` (enforce defaults to
// true). A profile the value does not name may sign nothing: the injection names every one it gives.
import { repeatedJsonMember } from '../text/repeated-json-member.js';
import { readOperationItem, type OperationItem } from './operation-rules.js';
import { operationLimit, type OperationLimit } from './operation-limit.js';

/** Each named profile's narrowing, null for none; profiles not named get an empty limit. */
export type ProfileNarrowing = ReadonlyMap<string, OperationLimit | null>;

export const OPERATIONS_SETTING_ALLOWED =
  'a JSON object of profiles, each named once, each "*" or {"operations": [...], "enforce": true|false}';

export function parseOperationsSetting(
  raw: string,
): { ok: true; value: ProfileNarrowing } | { ok: false; allowed: string } {
  const fail = { ok: false as const, allowed: OPERATIONS_SETTING_ALLOWED };
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    return fail;
  }
  // A profile named twice would be read as its last member: a limit written first is then no limit.
  if (value === null || typeof value !== 'object' || Array.isArray(value) || repeatedJsonMember(raw) !== null)
    return fail;
  const narrowing = new Map<string, OperationLimit | null>();
  for (const [profile, entry] of Object.entries(value)) {
    if (entry === '*') {
      narrowing.set(profile, null);
      continue;
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return fail;
    const { operations, enforce, ...rest } = entry as Record<string, unknown>;
    if (Object.keys(rest).length > 0 || !Array.isArray(operations)) return fail;
    if (enforce !== undefined && typeof enforce !== 'boolean') return fail;
    const items: OperationItem[] = [];
    for (const item of operations) {
      const read = readOperationItem(item);
      if (!read.ok) return fail;
      items.push(read.item);
    }
    narrowing.set(profile, operationLimit(items, enforce !== false));
  }
  return { ok: true, value: narrowing };
}

/** The value the injection writes for these profiles' narrowings. */
export function formatOperationsSetting(
  narrowing: ReadonlyMap<string, { readonly items: readonly OperationItem[]; readonly enforce: boolean } | null>,
): string {
  const members = [...narrowing].map(([profile, limit]) => [
    profile,
    limit === null ? '*' : { operations: limit.items, ...(limit.enforce ? {} : { enforce: false }) },
  ]);
  return JSON.stringify(Object.fromEntries(members));
}
