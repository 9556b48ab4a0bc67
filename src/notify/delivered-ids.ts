// Remembers the ids of recently delivered notifications, so that a repeat is acknowledged without a
// second delivery. Bounded in count (the oldest ids are forgotten first) and in size: an id has no
// length limit, so an id longer than a UUID's few dozen
// characters is remembered by its SHA-256. Kept whole, a few thousand long ids would fill the heap.
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
