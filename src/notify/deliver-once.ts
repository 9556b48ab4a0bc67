// Each notification reaches the application once: a repeat of a delivered id is not delivered again,
// and a repeat that arrives while its first copy is being delivered waits for that delivery's result
// instead of starting a second one.
import type { DeliveredIds } from './delivered-ids.js';
import type { AppDelivery, DeliveryResult } from './deliver-to-app.js';

export type OnceResult =
  /** Delivered before this copy arrived; nothing was sent. */
  | { readonly kind: 'already-delivered' }
  /** This copy's delivery, or (`first` false) the delivery of a copy that came in while it was under way. */
  | { readonly kind: 'attempted'; readonly first: boolean; readonly result: DeliveryResult };

export type DeliverOnce = (body: Buffer, rawHeaders: readonly string[], id: string) => Promise<OnceResult>;

/** @param took called with the seconds each delivery to the application took */
export function createDeliverOnce(
  delivery: AppDelivery,
  deliveredIds: DeliveredIds,
  took: (seconds: number) => void,
): DeliverOnce {
  const inFlight = new Map<string, Promise<DeliveryResult>>();
  return async (body, rawHeaders, id) => {
    if (deliveredIds.has(id)) return { kind: 'already-delivered' };
    let pending = inFlight.get(id);
    const first = pending === undefined;
    if (!pending) {
      const started = performance.now();
      pending = delivery.deliver(body, rawHeaders, id).then((result) => {
        took((performance.now() - started) / 1000);
        if (result.delivered) deliveredIds.add(id);
        return result;
      });
      inFlight.set(id, pending);
      // Settled either way (delivery never rejects; if it ever did, the caller's await rejects too).
      const forget = (): void => void inFlight.delete(id);
      pending.then(forget, forget);
    }
    return { kind: 'attempted', first, result: await pending };
  };
}
