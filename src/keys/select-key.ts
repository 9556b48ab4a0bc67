// Which key a profile signs with: the newest key whose window holds now. "Newest" is the
// latest notBefore; a key without notBefore is older than any key with one; ties go to the later entry.
import type { AccessKey } from '../signing/types.js';
import type { Profile, StoredKey } from './key-store.js';

export function isUsableAt(stored: StoredKey, nowMs: number): boolean {
  return (
    (stored.notBefore === null || stored.notBefore <= nowMs) && (stored.notAfter === null || nowMs < stored.notAfter)
  );
}

/** Each loaded profile's keys, newest first: computed once per store, not on every request. */
const newestFirst = new WeakMap<Profile, readonly StoredKey[]>();

function keysNewestFirst(profile: Profile): readonly StoredKey[] {
  let ordered = newestFirst.get(profile);
  if (!ordered) {
    ordered = profile.keys
      .map((stored, index) => ({ stored, index }))
      .sort((a, b) => (b.stored.notBefore ?? -Infinity) - (a.stored.notBefore ?? -Infinity) || b.index - a.index)
      .map(({ stored }) => stored);
    newestFirst.set(profile, ordered);
  }
  return ordered;
}

/** Keys usable now, newest first. */
export function usableKeys(profile: Profile, nowMs: number): StoredKey[] {
  return keysNewestFirst(profile).filter((stored) => isUsableAt(stored, nowMs));
}

export function currentKey(profile: Profile, nowMs: number): AccessKey | null {
  return keysNewestFirst(profile).find((stored) => isUsableAt(stored, nowMs))?.key ?? null;
}

/** Another key usable now, for one re-signed retry after the gateway refused `refusedKeyId`. */
export function alternateKey(profile: Profile, nowMs: number, refusedKeyId: string): AccessKey | null {
  return usableKeys(profile, nowMs).find((stored) => stored.key.accessKeyId !== refusedKeyId)?.key ?? null;
}
