// What a running pod's sidecar is, from the pod as `kubectl get -o json` prints it: the image its spec
// names and, from its status, the image the kubelet resolved and the digest it runs (imageID). An
// upgrade is judged by these, never by the version annotation, which says only which tool injected it.
import { SIDECAR_NAME } from '../../contract.js';
import { isRecord } from '../../../text/is-record.js';

export interface RunningSidecar {
  /** The image reference of the pod's spec. */
  readonly image: string | null;
  /** The digest the container runs (`sha256:...`), from its status. */
  readonly digest: string | null;
}

/** What an upgrade compares against: a version tag, or an image reference by tag or digest. */
export type WantedSidecar = { readonly version: string } | { readonly image: string };

const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/** The pod's sidecar, or null when it runs none. */
export function runningSidecar(pod: { readonly [field: string]: unknown }): RunningSidecar | null {
  const spec = isRecord(pod.spec) ? pod.spec : {};
  const container = [...list(spec.initContainers), ...list(spec.containers)].find((c) => c.name === SIDECAR_NAME);
  if (!container) return null;
  const status = isRecord(pod.status) ? pod.status : {};
  const state = [...list(status.initContainerStatuses), ...list(status.containerStatuses)].find(
    (c) => c.name === SIDECAR_NAME,
  );
  const imageId = typeof state?.imageID === 'string' ? state.imageID : '';
  return {
    image: typeof container.image === 'string' ? container.image : null,
    digest: /@(sha256:[0-9a-f]{64})$/.exec(imageId)?.[1] ?? null,
  };
}

/** An image reference's tag and digest (either may be missing). */
export function imageParts(reference: string): { tag: string | null; digest: string | null } {
  const at = reference.indexOf('@');
  const name = at === -1 ? reference : reference.slice(0, at);
  const colon = name.lastIndexOf(':');
  return {
    tag: colon > name.lastIndexOf('/') ? name.slice(colon + 1) : null,
    digest: at === -1 ? null : reference.slice(at + 1),
  };
}

/** Why the sidecar is not the one wanted, or null when it is. */
export function otherThanWanted(sidecar: RunningSidecar, wanted: WantedSidecar): string | null {
  const spec = sidecar.image === null ? null : imageParts(sidecar.image);
  if ('version' in wanted) {
    if (spec?.tag === wanted.version) return null;
    return spec?.tag
      ? `runs sidecar image tag ${spec.tag}, not ${wanted.version}`
      : `runs a sidecar image without a tag (${sidecar.image ?? 'none'}), not ${wanted.version}`;
  }
  const target = imageParts(wanted.image);
  if (target.digest !== null) {
    const running = sidecar.digest ?? spec?.digest ?? null;
    if (running === target.digest) return null;
    return running === null
      ? `runs a sidecar whose digest its status does not show yet, not ${target.digest}`
      : `runs sidecar digest ${running}, not ${target.digest}`;
  }
  return sidecar.image === wanted.image ? null : `runs sidecar image ${sidecar.image ?? 'none'}, not ${wanted.image}`;
}
