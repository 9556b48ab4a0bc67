// A warning that can come with every request is written at most once per interval and per key, with
// the count of those left out since the last one: a gateway refusing every request must not turn the
// log into one line per request, yet the first line comes at once and the count says how many followed.

/** Whether a line for `key` may be written now: the number of lines left out before it, or null. */
export type LogLimiter = (key: string) => number | null;

export function createLogLimiter(now: () => number, intervalMs: number): LogLimiter {
  const last = new Map<string, { at: number; suppressed: number }>();
  return (key) => {
    const at = now();
    const seen = last.get(key);
    if (seen !== undefined && at - seen.at < intervalMs) {
      seen.suppressed += 1;
      return null;
    }
    last.set(key, { at, suppressed: 0 });
    return seen?.suppressed ?? 0;
  };
}
