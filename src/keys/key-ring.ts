// Holds the key store in use. A reload swaps the whole store in one assignment, so a request sees
// either the old store or the new one, never a mix; a failed reload keeps the last good store.

import type { KeyStore } from './key-store.js';

export interface KeyRingStatus {
  /** Epoch ms of the last successful load, null before the first. */
  readonly lastSuccessAt: number | null;
  /** The last failed load, when it is more recent than the last success. */
  readonly lastError: { readonly at: number; readonly problems: readonly string[] } | null;
}

export type ReloadResult = 'success' | 'failure' | 'unchanged';

export interface KeyRing {
  /** The store in use, or null when none has ever loaded. */
  store(): KeyStore | null;
  status(): KeyRingStatus;
  replace(store: KeyStore, atMs: number): void;
  recordFailure(problems: readonly string[], atMs: number): void;
  /** Called after every replace or failure (metrics). */
  onChange(listener: (result: Exclude<ReloadResult, 'unchanged'>) => void): void;
}

export function createKeyRing(initial: KeyStore | null, loadedAtMs: number | null): KeyRing {
  let current = initial;
  let lastSuccessAt = initial ? loadedAtMs : null;
  let lastError: KeyRingStatus['lastError'] = null;
  const listeners: ((result: 'success' | 'failure') => void)[] = [];
  return {
    store: () => current,
    status: () => ({ lastSuccessAt, lastError }),
    replace(store, atMs) {
      current = store;
      lastSuccessAt = atMs;
      lastError = null;
      for (const listener of listeners) listener('success');
    },
    recordFailure(problems, atMs) {
      lastError = { at: atMs, problems };
      for (const listener of listeners) listener('failure');
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
