// The rules that keep the key store out of the application's reach in a pod the injection makes. The
// key store is a Secret volume mounted in the sidecar only; a container could still reach it by
// mounting the same volume or Secret, by seeing the sidecar's processes (a shared process namespace,
// the host's) and reading their files through /proc/PID/root, which the kernel allows to a process of
// the same user or one holding CAP_SYS_PTRACE, or by being privileged. Each rule names the container.
import type { Container, PodSpec, SecurityContext, Volume } from '../pod.js';

/** Capabilities that reach another user's process: ptrace it, or become its user. */
const REACHING_CAPABILITIES = new Set(['SYS_PTRACE', 'SETUID', 'ALL']);

export interface IsolationInput {
  readonly spec: PodSpec;
  /** The key store Secret the sidecar will mount. */
  readonly keystoreSecret: string;
  /** The volume the sidecar mounts it as. */
  readonly keystoreVolume: string;
  /** The sidecar's user id, or null when the platform assigns it (then any container may share it). */
  readonly sidecarUser: number | null;
}

/** Why the application could reach the keys in this pod; empty when it cannot. */
export function keyIsolationProblems(input: IsolationInput): string[] {
  const { spec } = input;
  const containers = [...(spec.initContainers ?? []), ...spec.containers, ...(spec.ephemeralContainers ?? [])];
  const problems: string[] = [];
  if (spec.hostPID === true)
    problems.push("the pod uses the host's process namespace (hostPID): every such pod on the node would see the keys");
  const keyVolumes = new Set(
    (spec.volumes ?? []).filter((volume) => holdsSecret(volume, input.keystoreSecret)).map((v) => v.name),
  );
  keyVolumes.add(input.keystoreVolume);
  for (const container of containers) {
    const name = `container ${container.name}`;
    if (container.securityContext?.privileged === true) problems.push(`${name} is privileged`);
    const mount = (container.volumeMounts ?? []).find((m) => keyVolumes.has(m.name));
    if (mount) problems.push(`${name} mounts volume ${mount.name}, which holds the key store Secret`);
    if (readsSecretIntoEnv(container, input.keystoreSecret))
      problems.push(`${name} reads the key store Secret ${input.keystoreSecret} into its environment`);
  }
  if (spec.shareProcessNamespace === true) problems.push(...sharedNamespaceProblems(input, containers));
  return problems;
}

/**
 * In a shared process namespace each other container must run as a user that is neither root nor the
 * sidecar's, without a way to become another user (privilege escalation, SETUID) or to ptrace.
 */
function sharedNamespaceProblems(input: IsolationInput, containers: readonly Container[]): string[] {
  const shared = 'the pod shares its process namespace (shareProcessNamespace)';
  if (input.sidecarUser === null)
    return [`${shared}, and the sidecar's user id is left to the platform, which may give every container the same`];
  const problems: string[] = [];
  for (const container of containers) {
    const context: SecurityContext = { ...input.spec.securityContext, ...container.securityContext };
    const user = context.runAsUser;
    const name = `container ${container.name}`;
    if (user === undefined)
      problems.push(`${shared}: ${name} must set securityContext.runAsUser (its image's user is unknown here)`);
    else if (user === 0) problems.push(`${shared}: ${name} runs as root`);
    else if (user === input.sidecarUser) problems.push(`${shared}: ${name} runs as the sidecar's user ${user}`);
    if (container.securityContext?.allowPrivilegeEscalation !== false)
      problems.push(`${shared}: ${name} must set securityContext.allowPrivilegeEscalation: false`);
    const reaching = (container.securityContext?.capabilities?.add ?? []).filter((c) =>
      REACHING_CAPABILITIES.has(c.toUpperCase().replace(/^CAP_/, '')),
    );
    if (reaching.length > 0) problems.push(`${shared}: ${name} adds the capability ${reaching.join(', ')}`);
  }
  return problems;
}

function holdsSecret(volume: Volume, secret: string): boolean {
  if (volume.secret?.secretName === secret) return true;
  return (volume.projected?.sources ?? []).some((source) => source.secret?.name === secret);
}

function readsSecretIntoEnv(container: Container, secret: string): boolean {
  return (
    (container.env ?? []).some((e) => e.valueFrom?.secretKeyRef?.name === secret) ||
    (container.envFrom ?? []).some((source) => source.secretRef?.name === secret)
  );
}
