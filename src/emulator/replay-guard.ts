// Remembers nonces for the gateway's one-hour window so that a replayed request is refused.

export interface ReplayGuard {
  /** Records the nonce; false when it was already seen within the window. */
  firstUse(scope: string, nonce: string, nowMs: number): boolean;
}

export function createReplayGuard(windowMs: number): ReplayGuard {
  const seen = new Map<string, number>(); // key -> expiry; insertion order is expiry order
  return {
    firstUse(scope, nonce, nowMs) {
      for (const [key, expiry] of seen) {
        if (expiry > nowMs) break;
        seen.delete(key);
      }
      const key = `${scope}\u0000${nonce}`;
      if (seen.has(key)) return false;
      seen.set(key, nowMs + windowMs);
      return true;
    },
  };
}
