// Why a pod is not injected, as data: each reason's code, the metric label it is counted under, what
// it does to the pod, and the sentence a reader is told. Every rule returns one of these codes; the
// webhook's answer, `inject`'s report, the decision metric and the docs' table all read this one table.

/**
 * What a reason does to the pod.
 * - `refuse`: the pod is refused, however it asked.
 * - `skip`: the pod is left as it is, quietly.
 * - `unsafe`: refused when the pod asked for the sidecar itself; when only its namespace asked, left
 *   without the sidecar with a warning, so that a namespace's label never blocks an unrelated pod. A
 *   pod that already carries a sidecar is always refused: leaving it as it is would admit that sidecar.
 */
export type ReasonAction = 'refuse' | 'skip' | 'unsafe';

export interface Reason {
  readonly action: ReasonAction;
  /** The `reason` label of sfd_injector_decisions_total. */
  readonly label: string;
  readonly sentence: string;
}

export const REASONS = {
  'pod-shape': {
    action: 'refuse',
    label: 'pod-shape',
    sentence: 'fields of the pod have the wrong types (answered Sidecar.PodInvalid)',
  },
  'not-asked': {
    action: 'skip',
    label: 'not-asked',
    sentence: 'the pod did not ask for the sidecar',
  },
  'opted-out': {
    action: 'skip',
    label: 'not-asked',
    sentence: 'the pod is labelled sfd-sidecar.io/inject: "false"',
  },
  'already-injected': {
    action: 'skip',
    label: 'already-injected',
    sentence: 'the pod carries a sidecar that passes every rule; an offline injection wins',
  },
  annotation: {
    action: 'refuse',
    label: 'annotation',
    sentence: 'an sfd-sidecar.io/ annotation or the inject label has a value the injection cannot use',
  },
  'carried-sidecar': {
    action: 'refuse',
    label: 'carried-sidecar',
    sentence:
      'the pod carries a sidecar that is not what injection makes (a command, hook, volume, variable or looser ' +
      'security context of its own), or whose profiles are not literal values, so it cannot be judged',
  },
  windows: {
    action: 'unsafe',
    label: 'windows',
    sentence: 'the image is Linux-only, and the API server refuses its Linux security fields on Windows',
  },
  'host-network': {
    action: 'unsafe',
    label: 'host-network',
    sentence: "127.0.0.1 is the node's: every host-network pod on the node could sign",
  },
  'not-entitled': {
    action: 'refuse',
    label: 'not-entitled',
    sentence: "the entitlement policy does not give the pod's namespace and service account a profile it would use",
  },
  'key-access': {
    action: 'unsafe',
    label: 'key-access',
    sentence: 'the application could reach the keys: the threat model lists how',
  },
  'job-in-classic-mode': {
    action: 'unsafe',
    label: 'job-in-classic-mode',
    sentence: 'a classic sidecar never exits, so a pod that runs to completion would never complete',
  },
  'pod-resources': {
    action: 'unsafe',
    label: 'pod-resources',
    sentence: "the sidecar's requests or limit do not fit the pod-level resources (spec.resources)",
  },
  ports: {
    action: 'refuse',
    label: 'ports',
    sentence: 'the signing port the annotation fixes is used by the pod, or no free port is left',
  },
} as const satisfies Record<string, Reason>;

export type ReasonCode = keyof typeof REASONS;

/** Every label the decision metric's `reason` may take, each once, besides `none` for an injection. */
export const REASON_LABELS: readonly string[] = [...new Set(Object.values(REASONS).map((r) => r.label))];
