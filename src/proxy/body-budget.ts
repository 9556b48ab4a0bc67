// The memory the sidecar may hold in request bodies at once (SFD_MAX_BUFFERED_BODY_BYTES). A body is
// read whole before it is signed (the signature covers its bytes) and kept until its request ends,
// since a retry sends it again. Without a bound, many callers sending large bodies to a slow gateway
// hold many times SFD_MAX_BODY_BYTES, past the container's memory limit, where the kernel kills it and
// every request in it. With the bound, a body that does not fit is refused (503) and nothing else is
// lost. Bytes count when they arrive, not when they are declared: a caller that declares a large body
// and sends it slowly holds only what it has sent.

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
