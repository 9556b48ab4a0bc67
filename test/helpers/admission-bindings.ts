// The chart's admission policy as the API server applies it: once per binding. A binding whose
// matchResources do not match the request is passed over; one that matches is evaluated with `params`
// null, as the policy takes no parameters.
import { refusals, renderedObjects, renderedPolicy, type AdmissionInput, type PolicySpec } from './admission-policy.js';
import { selects, type Selector } from './label-selector.js';

export interface PolicyBinding {
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly matchResources?: {
      readonly resourceRules?: readonly { readonly operations: readonly string[] }[];
      readonly namespaceSelector?: Selector;
      readonly objectSelector?: Selector;
    };
  };
}

/** The policy and its bindings, as one install of the chart creates them. */
export interface BoundPolicy {
  readonly policy: PolicySpec;
  readonly bindings: readonly PolicyBinding[];
}

export function renderedBoundPolicy(...setValues: string[]): BoundPolicy {
  const bindings = renderedObjects(
    'templates/keystore-admission-policy.yaml',
    'ValidatingAdmissionPolicyBinding',
    setValues,
  ) as PolicyBinding[];
  return { policy: renderedPolicy(...setValues), bindings };
}

/** Whether the binding's matchResources match the request, as BindingMatches decides. */
export function bindingMatches(binding: PolicyBinding, input: AdmissionInput): boolean {
  const match = binding.spec.matchResources;
  if (match === undefined) return true;
  const namespace = input.namespace ?? 'shop';
  const namespaceLabels = { ...input.namespaceLabels, 'kubernetes.io/metadata.name': namespace };
  const labelsOf = (object: unknown) =>
    (object as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels ?? {};
  const operation = input.operation ?? 'CREATE';
  // On an update the object selector matches when either the old or the new object matches.
  const objects = operation === 'UPDATE' ? [input.object, input.oldObject] : [input.object];
  const rules = match.resourceRules ?? [];
  return (
    selects(match.namespaceSelector ?? {}, namespaceLabels) &&
    objects.some((o) => selects(match.objectSelector ?? {}, labelsOf(o))) &&
    (rules.length === 0 || rules.some((r) => r.operations.includes(operation) || r.operations.includes('*')))
  );
}

/** The message of each refusal of every binding that matches the request; empty when the API server would admit it. */
export function boundRefusals(bound: BoundPolicy, input: Omit<AdmissionInput, 'params'>): string[] {
  return bound.bindings
    .filter((binding) => bindingMatches(binding, input))
    .flatMap(() => refusals(bound.policy, { ...input, params: null }));
}
