// The pod annotations the injection reads (`sfd-sidecar.io/...` overrides of the defaults) and writes
// (what it did). Any other annotation under the prefix is a mistake worth naming: a typo would
// otherwise be ignored without a word.

export const PREFIX = 'sfd-sidecar.io/';

export const ANNOTATIONS = {
  /** "true" or "false": inject this pod, or leave it alone. */
  inject: `${PREFIX}inject`,
  /** The Secret holding the key store, in the pod's namespace. */
  keystoreSecret: `${PREFIX}keystore-secret`,
  profile: `${PREFIX}profile`,
  /** Profiles a caller may pick per request (SFD_ALLOWED_PROFILES), with the header it picks them by. */
  allowedProfiles: `${PREFIX}allowed-profiles`,
  profileHeader: `${PREFIX}profile-header`,
  upstreamUrl: `${PREFIX}upstream-url`,
  /** The signing port on 127.0.0.1. */
  listenPort: `${PREFIX}listen-port`,
  signatureVersion: `${PREFIX}signature-version`,
  /** native (an init container with restartPolicy Always, Kubernetes 1.29+) or classic. */
  mode: `${PREFIX}mode`,
  /** The sidecar's user id, or `platform` to leave it (and the group) to the platform. */
  sidecarUser: `${PREFIX}sidecar-user`,
  /** The sidecar's resources: Kubernetes quantities. */
  cpuRequest: `${PREFIX}cpu-request`,
  memoryRequest: `${PREFIX}memory-request`,
  cpuLimit: `${PREFIX}cpu-limit`,
  memoryLimit: `${PREFIX}memory-limit`,
  /** A ConfigMap in the pod's namespace whose entries are more SFD_* settings of the sidecar. */
  envConfigMap: `${PREFIX}env-config-map`,
  /** A Secret in the pod's namespace whose entries are more SFD_* settings (credentials, tokens). */
  envSecret: `${PREFIX}env-secret`,
  /** Written: `injected` once the sidecar is in the pod. */
  status: `${PREFIX}status`,
  /** Written: the ports the sidecar listens on, `signing=P,admin=Q`. */
  ports: `${PREFIX}ports`,
  /** Written: the sidecar's version, as `sfd-sidecar --version` prints it (the upgrade report reads it). */
  version: `${PREFIX}version`,
} as const;

/**
 * The label a pod asks with ("true") or opts out with ("false"): unlike an annotation, the webhook's
 * objectSelector can see it, so a pod that did not ask never reaches the webhook.
 */
export const INJECT_LABEL = `${PREFIX}inject`;

/** The label an injected pod carries: what a PodMonitor selects. */
export const INJECTED_LABEL = `${PREFIX}injected`;

const KNOWN = new Set<string>(Object.values(ANNOTATIONS));

/** The annotations under the prefix that mean nothing here, in the order found. */
export function unknownAnnotations(annotations: Readonly<Record<string, string>>): string[] {
  return Object.keys(annotations).filter((name) => name.startsWith(PREFIX) && !KNOWN.has(name));
}
