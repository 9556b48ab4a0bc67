// The memory a listener may hold in request bodies (and, for the injector, answers) at once
// (SFD_MAX_BUFFERED_BODY_BYTES). The sidecar reads a body whole before it signs it (the signature covers
// its bytes) and keeps it until its request ends, since a retry sends it again; the injector reads a
// review whole and holds its answer until the caller has read it. Without a bound, many callers with
// large bodies, or callers that never read, hold many times the largest body, past the container's
// memory limit, where the kernel kills it and every request in it. With the bound, what does not fit is
// refused (503) and nothing else is lost. Bytes count when they arrive, not when they are declared: a
// caller that declares a large body and sends it slowly holds only what it has sent.

export interface BodyBudget {
  /** True when `bytes` would fit in what is left now. */
  fits(bytes: number): boolean;
  /** Takes `bytes` from the budget when they fit in what is left; otherwise takes nothing and returns false. */
  take(bytes: number): boolean;
  /** Gives back bytes taken before. */
  give(bytes: number): void;
  /** Bytes taken now (read at scrape time). */
  inUse(): number;
}

export function createBodyBudget(limitBytes: number): BodyBudget {
  let used = 0;
  return {
    fits: (bytes) => used + bytes <= limitBytes,
    take(bytes) {
      if (used + bytes > limitBytes) return false;
      used += bytes;
      return true;
    },
    give(bytes) {
      used -= bytes;
    },
    inUse: () => used,
  };
}
