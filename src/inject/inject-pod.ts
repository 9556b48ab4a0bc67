// The one injection: a pod template and the defaults in, the pod template with the sidecar out, with
// what was decided and why. `sfd-sidecar inject` maps it over the pod templates of manifests; the
// admission webhook applies it to a Pod and returns the difference as a JSON patch. Pure: no I/O.
import { ANNOTATIONS, INJECTED_LABEL, unknownAnnotations } from './annotations.js';
import { choosePorts } from './choose-ports.js';
import { optionsForPod, type InjectionOptions } from './injection-options.js';
import type { Container, PodTemplate, StringMap } from './pod.js';
import {
  ADMIN_PORT_NAME,
  KEYSTORE_VOLUME,
  SIDECAR_NAME,
  keystoreVolume,
  shutdownNeedsSeconds,
  sidecarContainer,
} from './sidecar-container.js';

/** Whether a pod without an inject annotation gets the sidecar: yes (`inject`, a namespace that opted in), or no. */
export type OptIn = 'unless-disabled' | 'when-enabled';

export type PodInjection =
  | {
      readonly outcome: 'injected';
      readonly template: PodTemplate;
      readonly notes: readonly string[];
      readonly unknownAnnotations: readonly string[];
    }
  | { readonly outcome: 'skipped'; readonly reason: string; readonly unknownAnnotations: readonly string[] }
  | {
      readonly outcome: 'refused';
      readonly problems: readonly string[];
      readonly unknownAnnotations: readonly string[];
    };

/** The environment variable application containers find the sidecar by. */
export const SIDECAR_URL_ENV = 'SFD_SIDECAR_URL';

/**
 * @param inherited annotations of the workload around the template (the template's own win)
 */
export function injectPod(
  template: PodTemplate,
  defaults: InjectionOptions,
  optIn: OptIn,
  inherited: Readonly<StringMap> = {},
): PodInjection {
  const annotations = { ...inherited, ...template.metadata?.annotations };
  const unknown = unknownAnnotations(annotations);
  const skip = (reason: string): PodInjection => ({ outcome: 'skipped', reason, unknownAnnotations: unknown });
  const refuse = (...problems: string[]): PodInjection => ({
    outcome: 'refused',
    problems,
    unknownAnnotations: unknown,
  });

  const flag = annotations[ANNOTATIONS.inject];
  if (flag === 'false') return skip(`annotated ${ANNOTATIONS.inject}: "false"`);
  if (flag !== undefined && flag !== 'true')
    return refuse(`annotation ${ANNOTATIONS.inject}: must be "true" or "false" (got ${JSON.stringify(flag)})`);
  if (flag === undefined && optIn === 'when-enabled') return skip(`not annotated ${ANNOTATIONS.inject}: "true"`);
  const spec = template.spec;
  const allContainers = [...(spec.initContainers ?? []), ...spec.containers];
  if (annotations[ANNOTATIONS.status] === 'injected' || allContainers.some((c) => c.name === SIDECAR_NAME))
    return skip('the sidecar is already in the pod');
  if (spec.hostNetwork === true) {
    return refuse(
      "the pod uses the host network: there 127.0.0.1 is the node's, and every host-network pod on the node " +
        'could sign with the key',
    );
  }
  const resolved = optionsForPod(defaults, annotations);
  if (!resolved.ok) return refuse(...resolved.problems);
  const options = resolved.options;
  if ((spec.volumes ?? []).some((v) => v.name === KEYSTORE_VOLUME))
    return refuse(`the pod already has a volume named ${KEYSTORE_VOLUME}`);
  const chosen = choosePorts(spec, {
    signing: options.signingPort,
    admin: options.adminPort,
    signingFixed: options.signingPortFromAnnotation,
  });
  if (!chosen.ok) return refuse(chosen.problem);
  const { ports } = chosen;
  const notes = [...chosen.moves];

  const sidecar = sidecarContainer(options, ports);
  const sidecarUrl = `http://127.0.0.1:${ports.signing}`;
  const withUrl = (container: Container): Container =>
    (container.env ?? []).some((e) => e.name === SIDECAR_URL_ENV)
      ? container
      : { ...container, env: [...(container.env ?? []), { name: SIDECAR_URL_ENV, value: sidecarUrl }] };
  const containers = spec.containers.map(withUrl);
  const newSpec = {
    ...spec,
    ...(options.mode === 'native'
      ? { initContainers: [sidecar, ...(spec.initContainers ?? [])], containers }
      : { containers: [sidecar, ...containers] }),
    volumes: [...(spec.volumes ?? []), keystoreVolume(options.keystoreSecret!)],
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
