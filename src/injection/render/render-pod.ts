// A decision to inject, rendered: the pod template with the sidecar (first among the init containers
// in the native form, the first container in the classic one), its key store and no-token volumes,
// SFD_SIDECAR_URL in each application container, and the label and annotations that say what was done.
// Pure: no I/O.
import { VERSION } from '../../version.js';
import {
  ADMIN_PORT_NAME,
  ASKING_VALUES,
  asks,
  INJECT_LABEL,
  INJECTED_LABEL,
  LABEL_ADDED,
  INJECTED_STATUS,
  METRICS_PATH,
  noTokenVolume,
  PROMETHEUS_ANNOTATIONS,
  portsAnnotation,
  SIDECAR_URL_ENV,
  WRITTEN,
} from '../contract.js';
import type { ChosenPorts } from '../decide/choose-ports.js';
import type { Narrowing } from '../decide/operations-narrowing.js';
import type { PodOptions } from '../options.js';
import type { Container, PodTemplate, StringMap } from '../pod.js';
import { keystoreVolume, shutdownNeedsSeconds, sidecarContainer } from './sidecar-container.js';

export interface RenderedPod {
  readonly template: PodTemplate;
  /** What the reader should know: a port that moved, annotations left as they were, a short grace. */
  readonly notes: readonly string[];
}

/** The URL application containers reach the sidecar at. */
export const sidecarUrl = (signingPort: number | string): string => `http://127.0.0.1:${signingPort}`;

/**
 * @param annotations the pod's annotations with the workload's around it (whether it names a scrape target)
 * @param moves a sentence for each port that moved
 */
export function renderPod(
  template: PodTemplate,
  plan: {
    readonly options: PodOptions;
    readonly ports: ChosenPorts;
    readonly moves: readonly string[];
    readonly narrowing: Narrowing;
  },
  annotations: Readonly<StringMap>,
): RenderedPod {
  const { options, ports } = plan;
  const spec = template.spec;
  const notes = [...plan.moves];
  const sidecar = sidecarContainer(options, ports, plan.narrowing);
  const url = sidecarUrl(ports.signing);
  const withUrl = (container: Container): Container =>
    (container.env ?? []).some((e) => e.name === SIDECAR_URL_ENV)
      ? container
      : { ...container, env: [...(container.env ?? []), { name: SIDECAR_URL_ENV, value: url }] };
  const newSpec = {
    ...spec,
    ...(options.mode === 'native'
      ? { initContainers: [sidecar, ...(spec.initContainers ?? [])], containers: spec.containers.map(withUrl) }
      : { containers: [sidecar, ...spec.containers.map(withUrl)] }),
    volumes: [...(spec.volumes ?? []), keystoreVolume(options), noTokenVolume()],
  };
  const scraped = Object.keys(annotations).some((name) => name.startsWith('prometheus.io/'));
  if (scraped)
    notes.push(
      `the pod's prometheus.io annotations are left as they are; the sidecar's metrics are on port ` +
        `${ports.admin} (${ADMIN_PORT_NAME}), which the chart's PodMonitor finds`,
    );
  const needs = shutdownNeedsSeconds(options);
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < needs)
    notes.push(
      `terminationGracePeriodSeconds ${spec.terminationGracePeriodSeconds} is shorter than the ${needs} s ` +
        `the sidecar may take to drain`,
    );
  const [scrape, port, path] = PROMETHEUS_ANNOTATIONS;
  const asked = asks(template.metadata?.labels?.[INJECT_LABEL]);
  const metadata = {
    ...template.metadata,
    labels: { ...template.metadata?.labels, ...(asked ? {} : { [INJECT_LABEL]: ASKING_VALUES[0]! }), [INJECTED_LABEL]: 'true' },
    annotations: {
      ...template.metadata?.annotations,
      ...(asked ? {} : { [WRITTEN.injectLabel]: LABEL_ADDED }),
      [WRITTEN.status]: INJECTED_STATUS,
      [WRITTEN.ports]: portsAnnotation(ports),
      [WRITTEN.version]: VERSION,
      ...(scraped ? {} : { [scrape]: 'true', [port]: String(ports.admin), [path]: METRICS_PATH }),
    },
  };
  return { template: { ...template, metadata, spec: newSpec }, notes };
}
