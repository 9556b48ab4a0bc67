// The pod template without what the injection added: the sidecar container, its key store volume,
// the SFD_SIDECAR_URL it gave each application container, its label and annotations, and the
// prometheus.io annotations it wrote (only when they are still the ones it writes). Lists and maps the
// injection created are taken away once empty. Pure: no I/O.
import { ANNOTATIONS, INJECTED_LABEL } from '../annotations.js';
import type { Container, PodTemplate, StringMap } from '../pod.js';
import { KEYSTORE_VOLUME, SIDECAR_NAME, SIDECAR_URL_ENV } from './sidecar-container.js';
const WRITTEN_ANNOTATIONS = [ANNOTATIONS.status, ANNOTATIONS.ports, ANNOTATIONS.version];

export function uninjectPod(template: PodTemplate): PodTemplate {
  const annotations = template.metadata?.annotations ?? {};
  const ports = /signing=(\d+),admin=(\d+)/.exec(annotations[ANNOTATIONS.ports] ?? '');
  const sidecarUrl = ports ? `http://127.0.0.1:${ports[1]}` : null;
  const withoutUrl = (container: Container): Container => {
    if (!container.env) return container;
    const env = container.env.filter(
      (e) => !(e.name === SIDECAR_URL_ENV && sidecarUrl !== null && e.value === sidecarUrl),
    );
    return env.length > 0 ? { ...container, env } : omit(container, ['env']);
  };
  const init = (template.spec.initContainers ?? []).filter((c) => c.name !== SIDECAR_NAME);
  const kept = (template.spec.volumes ?? []).filter((v) => v.name !== KEYSTORE_VOLUME);
  const newSpec = {
    ...omit(template.spec, ['initContainers', 'volumes']),
    ...(init.length > 0 ? { initContainers: init } : {}),
    containers: template.spec.containers.filter((c) => c.name !== SIDECAR_NAME).map(withoutUrl),
    ...(kept.length > 0 ? { volumes: kept } : {}),
  };
  const remainingAnnotations = omit(annotations, [
    ...WRITTEN_ANNOTATIONS,
    ...(ports && writtenPrometheus(annotations, ports[2]!) ? PROMETHEUS : []),
  ]);
  const labels = omit(template.metadata?.labels ?? {}, [INJECTED_LABEL]);
  const newMetadata = {
    ...omit(template.metadata ?? {}, ['labels', 'annotations']),
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    ...(Object.keys(remainingAnnotations).length > 0 ? { annotations: remainingAnnotations } : {}),
  };
  return {
    ...omit(template, ['metadata']),
    ...(Object.keys(newMetadata).length > 0 ? { metadata: newMetadata } : {}),
    spec: newSpec,
  };
}

const PROMETHEUS = ['prometheus.io/scrape', 'prometheus.io/port', 'prometheus.io/path'];

/** Whether the prometheus.io annotations are exactly those the injection writes for this admin port. */
function writtenPrometheus(annotations: Readonly<StringMap>, adminPort: string): boolean {
  const present = Object.keys(annotations).filter((name) => name.startsWith('prometheus.io/'));
  return (
    present.length === PROMETHEUS.length &&
    annotations['prometheus.io/scrape'] === 'true' &&
    annotations['prometheus.io/port'] === adminPort &&
    annotations['prometheus.io/path'] === '/metrics'
  );
}

function omit<T extends object>(value: T, keys: readonly string[]): T {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key))) as T;
}
