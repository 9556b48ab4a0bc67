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
  /** What to change for the pod to get the sidecar. */
  readonly fix: string;
}

export const REASONS = {
  'pod-shape': {
    action: 'refuse',
    label: 'pod-shape',
    sentence: 'fields of the pod have the wrong types (answered Sidecar.PodInvalid)',
    fix: 'give each field the type Kubernetes gives it (the message names the field)',
  },
  'judging-failed': {
    action: 'unsafe',
    label: 'judging-failed',
    sentence:
      'the injector failed while judging the pod, on a value its rules did not foresee; a pod that carries a ' +
      'sidecar or reads the key store is refused, since leaving it as it is would admit it unjudged',
    fix:
      "report the injector's log line for the pod (it names where judging failed, never the pod's values); " +
      'until then, drop from the pod the value it does not need',
  },
  'not-asked': {
    action: 'skip',
    label: 'not-asked',
    sentence: 'the pod did not ask for the sidecar',
    fix: 'label the pod template sfd-sidecar.io/inject: "true", or its namespace sfd-sidecar.io/inject=enabled',
  },
  'opted-out': {
    action: 'skip',
    label: 'not-asked',
    sentence: 'the pod is labelled sfd-sidecar.io/inject: "false"',
    fix: 'remove the label sfd-sidecar.io/inject: "false" from the pod template',
  },
  'already-injected': {
    action: 'skip',
    label: 'already-injected',
    sentence: 'the pod carries a sidecar that passes every rule; an offline injection wins',
    fix: "nothing: recreate the pod (kubectl rollout restart) to get the sidecar of the injector's version",
  },
  annotation: {
    action: 'refuse',
    label: 'annotation',
    sentence: 'an sfd-sidecar.io/ annotation or the inject label has a value the injection cannot use',
    fix: 'correct the value the message names (docs/injection.md lists what each annotation takes)',
  },
  'carried-sidecar': {
    action: 'refuse',
    label: 'carried-sidecar',
    sentence:
      'the pod carries a sidecar that is not what injection makes (a command, hook, volume, variable or looser ' +
      'security context of its own), or whose profiles are not literal values, so it cannot be judged',
    fix: 'take the sidecar out (sfd-sidecar uninject) and let the webhook or inject add it again',
  },
  windows: {
    action: 'unsafe',
    label: 'windows',
    sentence: 'the image is Linux-only, and the API server refuses its Linux security fields on Windows',
    fix: 'run the pod on Linux nodes, or leave it without the sidecar',
  },
  'host-network': {
    action: 'unsafe',
    label: 'host-network',
    sentence: "127.0.0.1 is the node's: every host-network pod on the node could sign",
    fix: 'run the pod without hostNetwork',
  },
  'not-entitled': {
    action: 'refuse',
    label: 'not-entitled',
    sentence: "the entitlement policy does not give the pod's namespace and service account a profile it would use",
    fix:
      'run the pod as a service account the entitlement policy grants the profile, or grant it ' +
      '(policy.entitlements)',
  },
  'key-access': {
    action: 'unsafe',
    label: 'key-access',
    sentence: 'the application could reach the keys: the threat model lists how',
    fix:
      'remove what the message names: the key store mount or variable, the privileged container, the ' +
      'capability, the hostPath volume, or the shared process namespace',
  },
  'job-in-classic-mode': {
    action: 'unsafe',
    label: 'job-in-classic-mode',
    sentence: 'a classic sidecar never exits, so a pod that runs to completion would never complete',
    fix: 'use the native mode (sfd-sidecar.io/mode: native, Kubernetes 1.29+)',
  },
  'pod-resources': {
    action: 'unsafe',
    label: 'pod-resources',
    sentence: "the sidecar's requests or limit do not fit the pod-level resources (spec.resources)",
    fix:
      "raise the pod-level resources by what the sidecar needs, or lower the sidecar's " +
      '(sfd-sidecar.io/cpu-request, memory-request)',
  },
  ports: {
    action: 'refuse',
    label: 'ports',
    sentence: 'the signing port the annotation fixes is used by the pod, or no free port is left',
    fix: 'choose another sfd-sidecar.io/listen-port, or leave it out and let the sidecar move',
  },
} as const satisfies Record<string, Reason>;

export type ReasonCode = keyof typeof REASONS;

/** Every label the decision metric's `reason` may take, each once, besides `none` for an injection. */
export const REASON_LABELS: readonly string[] = [...new Set(Object.values(REASONS).map((r) => r.label))];
