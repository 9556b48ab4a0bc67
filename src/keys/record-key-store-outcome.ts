// Takes what each read of the key store came to into the key ring and the log. A store that loads (or
// the store in use, read again after a failure) replaces the ring's and is logged with its warnings; a
// failure is recorded in the ring every time (/readyz, the reload metric) and warned about once for as
// long as the same broken state stays; the keys in use are checked for a coming expiry after every
// read that leaves a good store in place.
import type { Logger } from '../observability/logger.js';
import type { ReloadOutcome } from '../reload/last-good-reload.js';
import type { KeyRing, ReloadResult } from './key-ring.js';
import type { KeyStore } from './key-store.js';
import { warnOfExpiringKeys, type ExpiryWarningState } from './expiry-warnings.js';
import type { KeyStoreSnapshot } from './read-key-store-snapshot.js';

export type KeyStoreOutcome = ReloadOutcome<KeyStoreSnapshot, KeyStore | null, readonly string[]>;

export interface KeyStoreRecordOptions {
  /** The key store file or directory, named in the warnings. */
  readonly path: string;
  readonly ring: KeyRing;
  readonly logger: Logger;
  readonly now: () => number;
  readonly expiryWarningDays: number;
  /** The profiles the sidecar signs with: the only ones whose keys its log lines name. */
  readonly profiles: ReadonlySet<string>;
}

/** What a reload asked for came to, for its caller. */
export const RELOAD_RESULTS: Readonly<Record<KeyStoreOutcome['kind'], ReloadResult>> = {
  loaded: 'success',
  recovered: 'success',
  unchanged: 'unchanged',
  rejected: 'failure',
};

/** Returns the function that records each outcome, with the reason of the read it came from. */
export function recordKeyStoreOutcomes(
  options: KeyStoreRecordOptions,
): (outcome: KeyStoreOutcome, reason: string) => void {
  const { ring, logger } = options;
  const expiryWarnings: ExpiryWarningState = new Map();
  // The broken state last warned about: the same state is not warned about again.
  let lastWarned: string | null = null;

  const loaded = (snapshot: KeyStoreSnapshot, reason: string, now: number): void => {
    if (!snapshot.parsed.ok) return;
    const { store, warnings } = snapshot.parsed;
    // The same files as the store in use are a recovery after a failed read (a bad edit reverted): the
    // ring then records the success, and /readyz drops the stale error.
    ring.replace(store, now);
    const keys = [...store.profiles.values()].reduce((sum, p) => sum + p.keys.length, 0);
    logger.info('key store loaded', { reason, profiles: store.profiles.size, keys });
    for (const warning of warnings) logger.warn('key store loaded with a likely mistake', { warning });
  };

  const failed = (problems: readonly string[], state: string, reason: string, now: number): void => {
    ring.recordFailure(problems, now);
    if (state === lastWarned) return;
    lastWarned = state;
    const keepingLastGood = ring.store() !== null;
    const event = keepingLastGood
      ? 'key store not loaded; keeping the last good keys'
      : 'key store not loaded; nothing to sign with until it loads';
    logger.warn(event, { reason, path: options.path, problems: problems.join('; '), keepingLastGood });
  };

  return (outcome, reason) => {
    const now = options.now();
    if (outcome.kind === 'rejected') {
      // A read that rejected or stalled has no files to tell its state by: its problems are the state.
      const state = outcome.input?.digest ?? `\0${outcome.failure.join('\0')}`;
      return failed(outcome.failure, state, reason, now);
    }
    lastWarned = null;
    if (outcome.kind !== 'unchanged') loaded(outcome.input, reason, now);
    const store = ring.store();
    if (store) warnOfExpiringKeys(store, options.profiles, now, options.expiryWarningDays, expiryWarnings, logger);
  };
}
