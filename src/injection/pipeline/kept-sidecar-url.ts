// The application containers that set SFD_SIDECAR_URL themselves before `inject`: injection keeps their
// variable rather than add its own, so uninject must not take it away. `inject` names them in an
// annotation, which uninject reads back. Pure: no I/O.
import { SIDECAR_URL_ENV, WRITTEN } from '../contract.js';
import type { Container, PodTemplate } from '../pod.js';
import { uninjectPod } from '../render/uninject-pod.js';

const setsUrl = (container: Container | undefined): boolean =>
  Array.isArray(container?.env) && container.env.some((entry) => entry?.name === SIDECAR_URL_ENV);

/**
 * The injected template with WRITTEN.keptSidecarUrl naming the containers of `before` that set the
 * variable and would lose it to uninject; unchanged when there are none.
 */
export function recordKeptSidecarUrls(before: PodTemplate, injected: PodTemplate): PodTemplate {
  const bare = uninjectPod(injected).spec.containers;
  const names = before.spec.containers
    .filter((container) => setsUrl(container) && !setsUrl(bare.find((other) => other.name === container.name)))
    .map((container) => container.name);
  if (names.length === 0) return injected;
  const metadata = injected.metadata ?? {};
  return {
    ...injected,
    metadata: { ...metadata, annotations: { ...metadata.annotations, [WRITTEN.keptSidecarUrl]: names.join(',') } },
  };
}
