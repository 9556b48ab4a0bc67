// What a pod's sidecar may sign with each of its profiles, beyond the key store's own limit: the
// operations its entitlements grant (the union over the entries that entitle the profile), narrowed
// further by the pod's sfd-sidecar.io/operations annotation, which may pick among them but never add
// one. Each profile the pod may sign with is named, so that the sidecar refuses a profile it was not
// told about.
import type { OperationItem } from '../../operations/operation-rules.js';
import { describeOperationItem, sameOperationItem } from '../../operations/operation-rules.js';
import { annotationOf } from '../options.js';
import { grantedOperations, type EntitlementPolicy } from '../policy/entitlement-policy.js';
import type { PodFacts } from './facts.js';

export type Narrowing = ReadonlyMap<
  string,
  { readonly items: readonly OperationItem[]; readonly enforce: boolean } | null
>;

export interface NarrowingInput {
  readonly policy: EntitlementPolicy;
  readonly namespace: string;
}

/** Each profile's narrowing, and every operation the pod asks for that its entitlement does not grant. */
export function operationsNarrowing(
  facts: Pick<PodFacts, 'options' | 'serviceAccount'>,
  profiles: readonly string[],
  entitlement: NarrowingInput | undefined,
): { narrowing: Narrowing; problems: string[] } {
  const asked = facts.options.operations;
  const narrowing = new Map<string, { items: readonly OperationItem[]; enforce: boolean } | null>();
  const problems: string[] = [];
  for (const profile of profiles) {
    const granted = entitlement
      ? grantedOperations(entitlement.policy, entitlement.namespace, facts.serviceAccount, profile)
      : null;
    // A profile no entry entitles is the entitlement rule's to refuse.
    const grant = granted === undefined ? null : granted;
    if (asked === null) {
      narrowing.set(profile, grant);
      continue;
    }
    for (const item of asked)
      if (grant !== null && !grant.items.some((have) => sameOperationItem(have, item)))
        problems.push(
          `annotation ${annotationOf('operations')!}: may not use ${describeOperationItem(item)} with profile ` +
            `${profile}: the entitlement policy does not grant it`,
        );
    narrowing.set(profile, { items: asked, enforce: true });
  }
  return { narrowing, problems };
}
