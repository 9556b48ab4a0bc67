// The memory the sidecar may hold in request bodies at once (SFD_MAX_BUFFERED_BODY_BYTES). A body is
// read whole before it is signed (spec, Signing: the signature covers its bytes) and kept until its
// request ends, since a retry sends it again. Without a bound, N callers sending large bodies to a slow
// gateway hold N times SFD_MAX_BODY_BYTES: 400 concurrent 1 MB POSTs took the process to 501 MB of
// resident memory, past the chart's 192Mi limit, where the kernel kills the container and every
// request in it. With the bound, a body that does not fit is refused (503) and nothing else is lost.

export interface BodyBudget {
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
