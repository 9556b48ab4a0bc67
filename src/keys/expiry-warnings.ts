// Warns, at most once a day per key, of keys within the warning window of their notAfter: the keys of
// the profiles the sidecar signs with only, as a shared key store also holds other applications' keys,
// whose ids are theirs to see.
import type { Logger } from '../observability/logger.js';
import type { KeyStore } from './key-store.js';

const DAY_MS = 86_400_000;

/** When each key was last warned of, by `profile/accessKeyId`. */
export type ExpiryWarningState = Map<string, number>;

export function warnOfExpiringKeys(
  store: KeyStore,
  profiles: ReadonlySet<string>,
  nowMs: number,
  windowDays: number,
  state: ExpiryWarningState,
  logger: Logger,
): void {
  for (const name of profiles) {
    const profile = store.profiles.get(name);
    if (!profile) continue;
    for (const stored of profile.keys) {
      if (stored.notAfter === null || stored.notAfter <= nowMs || stored.notAfter - nowMs > windowDays * DAY_MS)
        continue;
      const id = `${profile.name}/${stored.key.accessKeyId}`;
      const last = state.get(id);
      if (last !== undefined && nowMs - last < DAY_MS) continue;
      state.set(id, nowMs);
      logger.warn('key expires soon', {
        profile: profile.name,
        accessKeyId: stored.key.accessKeyId,
        notAfter: new Date(stored.notAfter).toISOString(),
        daysLeft: Math.round(((stored.notAfter - nowMs) / DAY_MS) * 10) / 10,
      });
    }
  }
}
