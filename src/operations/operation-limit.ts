// A limit on the operations a profile signs, as the sidecar applies it: the items it allows, and
// whether it is enforced (a refusal) or a dry run (the call goes through, counted and logged as one
// the limit would refuse). No limit at all is null: every operation is signed.
import { operationCheck, type OperationCheck, type OperationItem } from './operation-rules.js';

export interface OperationLimit {
  readonly items: readonly OperationItem[];
  readonly enforce: boolean;
  readonly allows: OperationCheck;
}

export function operationLimit(items: readonly OperationItem[], enforce = true): OperationLimit {
  return { items, enforce, allows: operationCheck(items) };
}

/** What the limits say of one request: refused, let through as a dry run would refuse it, or allowed. */
export type OperationVerdict = 'allowed' | 'dry-run' | 'enforced';

/** Every limit must allow the call; an enforced limit that does not refuses it, a dry run only counts. */
export function judgeOperation(
  limits: readonly (OperationLimit | null)[],
  method: string,
  path: string,
): OperationVerdict {
  let verdict: OperationVerdict = 'allowed';
  for (const limit of limits) {
    if (limit === null || limit.allows(method, path)) continue;
    if (limit.enforce) return 'enforced';
    verdict = 'dry-run';
  }
  return verdict;
}
