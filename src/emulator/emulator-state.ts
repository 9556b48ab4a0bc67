// The emulator's in-memory state: customers, services, keys, the accepted signature form, the clock.
import type { AcceptedForm, EmulatorKey } from './verifier.js';
import { seedCustomers, seedServices, type Customer, type Service } from './seed-data.js';

export interface EmulatorState {
  readonly customers: Map<number, Customer>;
  readonly services: Map<number, Service>;
  readonly keys: Map<string, EmulatorKey>;
  form: AcceptedForm;
  /** The emulated gateway's clock, epoch ms. */
  now: () => number;
  /**
   * Every request that passed verification, by key, time and the X-SFD-Date it was signed at (bounded to
   * the last 100000).
   */
  readonly accepted: { accessKeyId: string; atMs: number; signedAtMs: number }[];
}

export function createEmulatorState(options: {
  keys: Map<string, EmulatorKey>;
  form: AcceptedForm;
  now: () => number;
}): EmulatorState {
  return {
    customers: new Map(seedCustomers().map((c) => [c.id, c])),
    services: new Map(seedServices().map((s) => [s.id, s])),
    keys: options.keys,
    form: options.form,
    now: options.now,
    accepted: [],
  };
}

/** True when `id` is `ownerId` or one of its descendants. */
export function isInTree(state: EmulatorState, ownerId: number, id: number): boolean {
  for (let current = state.customers.get(id); current; current = state.customers.get(current.parentId)) {
    if (current.id === ownerId) return true;
    if (current.parentId === current.id) return false;
  }
  return false;
}
