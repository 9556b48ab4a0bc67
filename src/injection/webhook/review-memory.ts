// The memory one review holds in the injector's shared budget (SFD_MAX_BUFFERED_BODY_BYTES): its body
// as it arrives, then its answer until the caller has read it. Both are given back when the exchange
// closes. An answer the caller does not read within the deadline closes the connection, so a caller
// that sends reviews and never reads cannot pin memory; any pod in the cluster can reach the injector.
import type { ServerResponse } from 'node:http';
import type { BodyBudget } from '../../http/body-budget.js';
import type { BodyHold } from '../../http/read-body.js';

export interface ReviewMemory {
  /** What the body reader takes from the budget. */
  readonly hold: BodyHold;
  /** Takes the answer's bytes and arms the deadline; false when they do not fit. */
  answer(bytes: number): boolean;
}

export function reviewMemory(budget: BodyBudget, outgoing: ServerResponse, deadlineMs: number): ReviewMemory {
  let held = 0;
  let timer: NodeJS.Timeout | undefined;
  outgoing.once('close', () => {
    clearTimeout(timer);
    budget.give(held);
    held = 0;
  });
  const take = (bytes: number): boolean => {
    if (!budget.take(bytes)) return false;
    held += bytes;
    return true;
  };
  return {
    hold: { fits: (bytes) => budget.fits(bytes), take },
    answer(bytes) {
      if (!take(bytes)) return false;
      timer = setTimeout(() => {
        if (!outgoing.writableFinished) outgoing.destroy();
      }, deadlineMs);
      timer.unref();
      return true;
    },
  };
}
