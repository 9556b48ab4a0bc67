// Remembers the ids of recently delivered notifications, so that a repeat is acknowledged without a
// second delivery. Bounded in count (the oldest ids are forgotten first) and in size: the spec gives an
// id no length (api-spec, notification fields: `id`, string), so an id longer than a UUID's few dozen
// characters is remembered by its SHA-256. Kept whole, 9,468 delivered notifications with 12,000-character
// ids ran V8's heap out (128 MiB) and ended the process.
import { createHash } from 'node:crypto';

export interface DeliveredIds {
  has(id: string): boolean;
  add(id: string): void;
}

/** Ids up to this length are kept as they are; longer ones by their digest. */
const KEPT_WHOLE = 64;

/** A short id as it is, a long one as its digest; the first character keeps the two kinds apart. */
function keyOf(id: string): string {
  return id.length <= KEPT_WHOLE ? `=${id}` : `#${createHash('sha256').update(id).digest('base64')}`;
}

export function createDeliveredIds(capacity: number): DeliveredIds {
  const keys = new Set<string>();
  return {
    has: (id) => keys.has(keyOf(id)),
    add(id) {
      const key = keyOf(id);
      keys.delete(key);
      keys.add(key);
      if (keys.size > capacity) keys.delete(keys.values().next().value!);
    },
  };
}
