// Remembers the ids of recently delivered notifications, so that a repeat is acknowledged without a
// second delivery. Bounded: the oldest ids are forgotten first.

export interface DeliveredIds {
  has(id: string): boolean;
  add(id: string): void;
}

export function createDeliveredIds(capacity: number): DeliveredIds {
  const ids = new Set<string>();
  return {
    has: (id) => ids.has(id),
    add(id) {
      ids.delete(id);
      ids.add(id);
      if (ids.size > capacity) ids.delete(ids.values().next().value!);
    },
  };
}
