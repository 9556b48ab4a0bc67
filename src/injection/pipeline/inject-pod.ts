// The one injection: a pod template and the defaults in, the pod template with the sidecar out, with
// what was decided and why. `sfd-sidecar inject` maps it over the pod templates of manifests; the
// admission webhook applies it to a Pod and returns the difference as a JSON patch. Pure: no I/O.
//
// A pod that cannot safely run with the sidecar (Windows, the host's network, a way for another
// container to reach the keys, a Job that would never end, a pod budget the sidecar does not fit) is
// refused when it asked for the sidecar itself, and skipped with a warning when only its namespace
// asked: a namespace's label never blocks an unrelated pod.
import { VERSION } from '../../version.js';
import { ANNOTATIONS, INJECTED_LABEL, INJECT_LABEL, unknownAnnotations } from '../annotations.js';
import { choosePorts } from '../decide/choose-ports.js';
import { optionsForPod, podProfiles, type InjectionOptions, type PodOptions } from '../options.js';
import { entitlementProblem, serviceAccountOf, type EntitlementPolicy } from '../policy/entitlement-policy.js';
import { keyIsolationProblems } from '../decide/key-isolation.js';
import type { Container, PodTemplate, StringMap } from '../pod.js';
import { podResourceProblems } from '../decide/pod-resources.js';
import { podShapeProblems } from '../decide/pod-shape.js';
import {
  ADMIN_PORT_NAME,
  KEYSTORE_VOLUME,
  SIDECAR_NAME,
  sidecarResources,
  SIDECAR_URL_ENV,
  keystoreVolume,
  shutdownNeedsSeconds,
  sidecarContainer,
} from '../render/sidecar-container.js';
import { uninjectPod } from '../render/uninject-pod.js';
import { windowsOnly } from '../decide/windows-pod.js';
import { sameValue } from '../json-patch.js';

/**
 * Who asked for the sidecar: `inject` over every workload it is given (unless annotated "false"), a
 * pod by its own annotation (the webhook's opt-in path), or the pod's namespace (every pod there
 * unless annotated "false"; the pod asked itself only when annotated "true").
 */
export type OptIn = 'every-workload' | 'pod-asks' | 'namespace-asks';

/** Why a pod is not injected, as a metric label. */
export type NotInjectedReason =
  | 'pod-shape'
  | 'annotation'
  | 'windows'
  | 'host-network'
  | 'key-access'
  | 'job-in-classic-mode'
  | 'pod-resources'
  | 'ports'
  | 'not-entitled';

export type PodInjection =
  | {
      readonly outcome: 'injected';
      readonly template: PodTemplate;
      readonly notes: readonly string[];
      readonly unknownAnnotations: readonly string[];
    }
  | {
      readonly outcome: 'skipped';
      readonly reason: string;
      readonly unknownAnnotations: readonly string[];
      /** Set when the pod was skipped because it cannot safely run with the sidecar: a warning. */
      readonly unsafe?: NotInjectedReason;
    }
  | {
      readonly outcome: 'refused';
      readonly problems: readonly string[];
      readonly reason: NotInjectedReason;
      readonly unknownAnnotations: readonly string[];
    };

export { SIDECAR_URL_ENV } from '../render/sidecar-container.js';

/** An entitlement policy to apply, and where the pod is: its object's name and its namespace. */
export interface PolicyCheck {
  readonly policy: EntitlementPolicy;
  readonly object: string;
  readonly namespace: string;
}

/**
 * @param inherited annotations of the workload around the template (the template's own win)
 * @param entitlement the policy the pod's profiles must be entitled by; none: every profile may be used
 */
export function injectPod(
  template: PodTemplate,
  defaults: InjectionOptions,
  optIn: OptIn,
  inherited: Readonly<StringMap> = {},
  entitlement?: PolicyCheck,
): PodInjection {
  const shape = podShapeProblems(template);
  if (shape.length > 0) return { outcome: 'refused', problems: shape, reason: 'pod-shape', unknownAnnotations: [] };
  const annotations = { ...inherited, ...template.metadata?.annotations };
  const unknown = unknownAnnotations(annotations);
  const skip = (reason: string): PodInjection => ({ outcome: 'skipped', reason, unknownAnnotations: unknown });
  const refuse = (reason: NotInjectedReason, ...problems: string[]): PodInjection => ({
    outcome: 'refused',
    problems,
    reason,
    unknownAnnotations: unknown,
  });

  // The label (what the webhook's selectors see) wins over the annotation (what `inject` also reads).
  const label = template.metadata?.labels?.[INJECT_LABEL];
  const flag = label ?? annotations[ANNOTATIONS.inject];
  const carrier = label === undefined ? 'annotation' : 'label';
  if (flag === 'false') return skip(`${carrier} ${INJECT_LABEL}: "false"`);
  if (flag !== undefined && flag !== 'true')
    return refuse('annotation', `${carrier} ${INJECT_LABEL}: must be "true" or "false" (got ${JSON.stringify(flag)})`);
  if (flag === undefined && optIn === 'pod-asks') return skip(`not labelled ${INJECT_LABEL}: "true"`);
  const spec = template.spec;
  const containers = [...(spec.initContainers ?? []), ...spec.containers];
  if (annotations[ANNOTATIONS.status] === 'injected' || containers.some((c) => c.name === SIDECAR_NAME)) {
    // The webhook leaves an injected pod alone (an offline injection wins); `inject` brings it to what
    // it is asked for now: the injection of the pod without its sidecar.
    if (optIn !== 'every-workload') return skip('the sidecar is already in the pod');
    const again = injectPod(uninjectPod(template), defaults, optIn, inherited, entitlement);
    if (again.outcome === 'injected' && sameValue(again.template, template))
      return skip('the sidecar is already in the pod, as asked');
    return again.outcome === 'injected'
      ? { ...again, notes: [...again.notes, 'the sidecar it had is replaced by the one asked for now'] }
      : again;
  }
  // Only its namespace asked: a pod that cannot take the sidecar is left as it is, with a warning.
  const askedItself = flag === 'true' || optIn === 'every-workload';
  const unsafe = (reason: NotInjectedReason, ...problems: string[]): PodInjection =>
    askedItself
      ? refuse(reason, ...problems)
      : {
          outcome: 'skipped',
          reason: `it cannot run the sidecar: ${problems.join('; ')}`,
          unknownAnnotations: unknown,
          unsafe: reason,
        };

  const windows = windowsOnly(spec);
  if (windows) return unsafe('windows', `it runs on Windows nodes (${windows}); the sidecar's image is Linux-only`);
  if (spec.hostNetwork === true) {
    return unsafe(
      'host-network',
      "the pod uses the host network: there 127.0.0.1 is the node's, and every host-network pod on the node " +
        'could sign with the key',
    );
  }
  const resolved = optionsForPod(defaults, annotations);
  if (!resolved.ok) return refuse('annotation', ...resolved.problems);
  const options = resolved.options;
  if (entitlement) {
    // A pod outside the policy is refused however it asked: a namespace's label does not entitle it.
    const workload = { ...entitlement, serviceAccount: serviceAccountOf(spec) };
    const denied = entitlementProblem(entitlement.policy, workload, podProfiles(options));
    if (denied) return refuse('not-entitled', denied);
  }
  const safety = safetyProblems(template, options);
  if (safety) return unsafe(safety.reason, ...safety.problems);
  const chosen = choosePorts(spec, {
    signing: options.signingPort,
    admin: options.adminPort,
    signingFixed: options.signingPortFromAnnotation,
  });
  if (!chosen.ok) return refuse('ports', chosen.problem);
  const { ports } = chosen;
  const notes = [...chosen.moves];

  const sidecar = sidecarContainer(options, ports);
  const sidecarUrl = `http://127.0.0.1:${ports.signing}`;
  const withUrl = (container: Container): Container =>
    (container.env ?? []).some((e) => e.name === SIDECAR_URL_ENV)
      ? container
      : { ...container, env: [...(container.env ?? []), { name: SIDECAR_URL_ENV, value: sidecarUrl }] };
  const newSpec = {
    ...spec,
    ...(options.mode === 'native'
      ? { initContainers: [sidecar, ...(spec.initContainers ?? [])], containers: spec.containers.map(withUrl) }
      : { containers: [sidecar, ...spec.containers.map(withUrl)] }),
    volumes: [
      ...(spec.volumes ?? []),
      keystoreVolume(
        options.keystoreSecret!,
        options.keystoreLayout === 'per-profile' ? podProfiles(options) : undefined,
      ),
    ],
  };
  const ownAnnotations = template.metadata?.annotations ?? {};
  const scraped = Object.keys(annotations).some((name) => name.startsWith('prometheus.io/'));
  if (scraped)
    notes.push(
      `the pod's prometheus.io annotations are left as they are; the sidecar's metrics are on port ` +
        `${ports.admin} (${ADMIN_PORT_NAME}), which the chart's PodMonitor finds`,
    );
  const needs = shutdownNeedsSeconds(options);
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < needs) {
    notes.push(
      `terminationGracePeriodSeconds ${spec.terminationGracePeriodSeconds} is shorter than the ${needs} s ` +
        `the sidecar may take to drain`,
    );
  }
  const metadata = {
    ...template.metadata,
    labels: { ...template.metadata?.labels, [INJECTED_LABEL]: 'true' },
    annotations: {
      ...ownAnnotations,
      [ANNOTATIONS.status]: 'injected',
      [ANNOTATIONS.ports]: `signing=${ports.signing},admin=${ports.admin}`,
      [ANNOTATIONS.version]: VERSION,
      ...(scraped
        ? {}
        : {
            'prometheus.io/scrape': 'true',
            'prometheus.io/port': String(ports.admin),
            'prometheus.io/path': '/metrics',
          }),
    },
  };
  return {
    outcome: 'injected',
    template: { ...template, metadata, spec: newSpec },
    notes,
    unknownAnnotations: unknown,
  };
}

/** The first rule the pod breaks, with every problem of that rule; null when it can take the sidecar. */
function safetyProblems(
  template: PodTemplate,
  options: PodOptions,
): { reason: NotInjectedReason; problems: string[] } | null {
  const spec = template.spec;
  if ((spec.volumes ?? []).some((v) => v.name === KEYSTORE_VOLUME))
    return { reason: 'key-access', problems: [`the pod already has a volume named ${KEYSTORE_VOLUME}`] };
  const isolation = keyIsolationProblems({
    spec,
    keystoreSecret: options.keystoreSecret!,
    keystoreVolume: KEYSTORE_VOLUME,
    sidecarUser: options.sidecarUser === 'platform' ? null : options.sidecarUser,
  });
  if (isolation.length > 0) return { reason: 'key-access', problems: isolation };
  const restart = spec.restartPolicy;
  if (options.mode === 'classic' && (restart === 'Never' || restart === 'OnFailure')) {
    return {
      reason: 'job-in-classic-mode',
      problems: [
        `the pod runs to completion (restartPolicy ${restart}), and a classic sidecar never exits, so it would ` +
          `never complete: use the native mode (${ANNOTATIONS.mode}: native, Kubernetes 1.29+)`,
      ],
    };
  }
  const budget = podResourceProblems(spec, sidecarResources(options));
  if (budget.length > 0) return { reason: 'pod-resources', problems: budget };
  return null;
}
