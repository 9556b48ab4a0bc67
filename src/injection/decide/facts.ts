// What the rules judge, computed once from a pod whose shape is known good: how it asked, its options,
// the account it runs as, the sidecar it carries, and what the key isolation rules weigh (the Secrets,
// volumes and user of the sidecar it would have, or of the one it carries).
import { asks, INJECT_LABEL, KEYSTORE_VOLUME } from '../contract.js';
import { overrideByAnnotations, podProfiles, type InjectionOptions, type PodOptions } from '../options.js';
import type { Container, PodTemplate, StringMap } from '../pod.js';
import { carriedSidecar, type CarriedSidecar } from './carried-sidecar.js';
import { unknownAnnotations } from './known-annotations.js';
import { serviceAccountOf } from './service-account.js';

/**
 * Who asked for the sidecar: `inject` over every workload it is given (unless labelled "false"), a pod
 * by its own label (the webhook's path for pods), or the pod's namespace (every pod there unless
 * labelled "false"; the pod asked itself only when labelled "true").
 */
export type OptIn = 'every-workload' | 'pod-asks' | 'namespace-asks';

export interface PodFacts {
  readonly template: PodTemplate;
  /** The workload's annotations, then the template's own, which win. */
  readonly annotations: Readonly<StringMap>;
  readonly unknownAnnotations: readonly string[];
  /** The inject label's value (the annotation's, when there is no label), and which carried it. */
  readonly flag: { readonly value: string | undefined; readonly carrier: 'label' | 'annotation' };
  readonly optIn: OptIn;
  /** The pod asked for the sidecar itself, rather than through its namespace. */
  readonly askedItself: boolean;
  readonly serviceAccount: string;
  /** The options its annotations give, and every annotation that cannot be read. */
  readonly options: PodOptions;
  readonly optionProblems: readonly string[];
  /** The sidecar it already carries, or null. */
  readonly carried: CarriedSidecar | null;
  /** The profiles its sidecar would sign with (null when a carried sidecar's cannot be told). */
  readonly profiles: readonly string[] | null;
  /** What the key isolation rules weigh. */
  readonly isolation: {
    readonly others: readonly Container[];
    readonly keystoreSecrets: readonly string[];
    readonly keystoreVolumes: readonly string[];
    readonly sidecarUser: number | null;
  };
  readonly mode: 'native' | 'classic';
}

export function podFacts(
  template: PodTemplate,
  defaults: InjectionOptions,
  optIn: OptIn,
  inherited: Readonly<StringMap>,
): PodFacts {
  const annotations = { ...inherited, ...template.metadata?.annotations };
  // The webhook asks by label only (its selectors see no annotation); `inject` reads the annotation too.
  const label = template.metadata?.labels?.[INJECT_LABEL];
  const annotation = optIn === 'every-workload' ? annotations[INJECT_LABEL] : undefined;
  const flag = { value: label ?? annotation, carrier: label === undefined ? 'annotation' : 'label' } as const;
  const { options, problems } = overrideByAnnotations(defaults, annotations);
  const spec = template.spec;
  // A pod carries a sidecar when a container is one; a status annotation alone is only a claim, and
  // a pod that makes it without the container gets the sidecar like any other.
  const carried = carriedSidecar(spec);
  const others = carried?.others ?? [
    ...(spec.initContainers ?? []),
    ...spec.containers,
    ...(spec.ephemeralContainers ?? []),
  ];
  return {
    template,
    annotations,
    unknownAnnotations: unknownAnnotations(annotations),
    flag,
    optIn,
    askedItself: asks(flag.value) || optIn === 'every-workload',
    serviceAccount: serviceAccountOf(spec),
    options,
    optionProblems: problems,
    carried,
    profiles: carried ? (carried.profiles.ok ? carried.profiles.names : null) : podProfiles(options),
    isolation: carried
      ? {
          others,
          keystoreSecrets: keystoreSecrets(defaults, options, carried.secrets),
          keystoreVolumes: carried.volumes,
          sidecarUser: carried.user,
        }
      : {
          others,
          keystoreSecrets: keystoreSecrets(defaults, options),
          keystoreVolumes: [KEYSTORE_VOLUME],
          sidecarUser: options.sidecarUser === 'platform' ? null : options.sidecarUser,
        },
    mode: carried?.mode ?? options.mode,
  };
}

/**
 * Every Secret the pod must keep from its applications: the one its sidecar reads, and the default one
 * of every pod, which a pod naming another Secret for its own sidecar may still mount.
 */
function keystoreSecrets(defaults: InjectionOptions, options: PodOptions, carried: readonly string[] = []): string[] {
  const named = [defaults.keystoreSecret, options.keystoreSecret, ...carried];
  return [...new Set(named.filter((name): name is string => name !== null))];
}
