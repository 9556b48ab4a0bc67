// The pod template without what the injection added: the sidecar container, its volumes, the
// SFD_SIDECAR_URL it gave each application container (not one a container set itself), its label and
// annotations, and the prometheus.io annotations it wrote (only when they are still the ones it
// writes). A list or map is taken away only when taking out what the injection added leaves it empty;
// anything else, and a pod that never had a sidecar, is returned as it came, so that a GitOps diff shows
// only what injection did. Pure: no I/O.
import {
  INJECT_LABEL,
  INJECTED_LABEL,
  LABEL_ADDED,
  INJECTED_VOLUMES,
  METRICS_PATH,
  portsFromAnnotation,
  PROMETHEUS_ANNOTATIONS,
  SIDECAR_NAME,
  SIDECAR_URL_ENV,
  WRITTEN,
} from '../contract.js';
import type { Container, PodTemplate, StringMap } from '../pod.js';
import { sidecarUrl } from './render-pod.js';

export function uninjectPod(template: PodTemplate): PodTemplate {
  const annotations = template.metadata?.annotations ?? {};
  const ports = portsFromAnnotation(annotations[WRITTEN.ports]);
  const url = ports ? sidecarUrl(ports.signing) : null;
  const keptUrl = (annotations[WRITTEN.keptSidecarUrl] ?? '').split(',');
  const withoutUrl = (container: Container): Container => {
    const env = container.env;
    if (!env || url === null || keptUrl.includes(container.name)) return container;
    const kept = env.filter((e) => !(e.name === SIDECAR_URL_ENV && e.value === url));
    return kept.length === env.length ? container : setOrDrop(container, 'env', kept);
  };
  const spec = template.spec;
  const isSidecar = (c: Container) => c.name === SIDECAR_NAME;
  let newSpec = spec;
  if (spec.initContainers?.some(isSidecar))
    newSpec = setOrDrop(
      newSpec,
      'initContainers',
      spec.initContainers.filter((c) => !isSidecar(c)),
    );
  const containers = spec.containers.filter((c) => !isSidecar(c)).map(withoutUrl);
  if (containers.length !== spec.containers.length || containers.some((c, i) => c !== spec.containers[i]))
    newSpec = { ...newSpec, containers };
  const injectedVolume = (v: { name: string }) => INJECTED_VOLUMES.includes(v.name);
  if (spec.volumes?.some(injectedVolume))
    newSpec = setOrDrop(
      newSpec,
      'volumes',
      spec.volumes.filter((v) => !injectedVolume(v)),
    );

  const written = [
    ...Object.values(WRITTEN),
    ...(ports && writtenPrometheus(annotations, String(ports.admin)) ? PROMETHEUS_ANNOTATIONS : []),
  ];
  let metadata = template.metadata;
  if (metadata?.annotations && written.some((name) => name in annotations))
    metadata = setOrDrop(metadata, 'annotations', without(annotations, written));
  const labels = metadata?.labels;
  const added = [INJECTED_LABEL, ...(annotations[WRITTEN.injectLabel] === LABEL_ADDED ? [INJECT_LABEL] : [])];
  if (metadata && labels && added.some((name) => name in labels))
    metadata = setOrDrop(metadata, 'labels', without(labels, added));
  if (newSpec === spec && metadata === template.metadata) return template;
  const result: PodTemplate = { ...template, spec: newSpec };
  if (metadata !== template.metadata) {
    if (metadata !== undefined && Object.keys(metadata).length > 0) result.metadata = metadata;
    else delete result.metadata;
  }
  return result;
}

/** Whether the prometheus.io annotations are exactly those the injection writes for this admin port. */
function writtenPrometheus(annotations: Readonly<StringMap>, adminPort: string): boolean {
  const present = Object.keys(annotations).filter((name) => name.startsWith('prometheus.io/'));
  const [scrape, port, path] = PROMETHEUS_ANNOTATIONS;
  return (
    present.length === PROMETHEUS_ANNOTATIONS.length &&
    annotations[scrape] === 'true' &&
    annotations[port] === adminPort &&
    annotations[path] === METRICS_PATH
  );
}

/** The object with the field set to what is left, or without the field when nothing is. */
function setOrDrop<T extends object, K extends keyof T>(object: T, key: K, left: unknown[] | object): T {
  const empty = Array.isArray(left) ? left.length === 0 : Object.keys(left).length === 0;
  if (!empty) return { ...object, [key]: left };
  const copy = { ...object };
  delete copy[key];
  return copy;
}

function without(map: Readonly<StringMap>, names: readonly string[]): StringMap {
  return Object.fromEntries(Object.entries(map).filter(([name]) => !names.includes(name)));
}
