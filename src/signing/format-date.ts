// X-SFD-Date formatting (yyyyMMdd'T'HHmmss'Z', always UTC), cached per second.

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Formats an epoch-milliseconds instant as X-SFD-Date, in UTC. */
export function formatSfdDate(epochMs: number): string {
  const d = new Date(epochMs);
  return (
    String(d.getUTCFullYear()).padStart(4, '0') +
    pad2(d.getUTCMonth() + 1) +
    pad2(d.getUTCDate()) +
    'T' +
    pad2(d.getUTCHours()) +
    pad2(d.getUTCMinutes()) +
    pad2(d.getUTCSeconds()) +
    'Z'
  );
}

/** Returns a formatter that reuses the last result while the second has not changed. */
export function createCachedDateFormatter(): (epochMs: number) => string {
  let cachedSecond = Number.NaN;
  let cachedText = '';
  return (epochMs: number): string => {
    const second = Math.floor(epochMs / 1000);
    if (second !== cachedSecond) {
      cachedSecond = second;
      cachedText = formatSfdDate(epochMs);
    }
    return cachedText;
  };
}
