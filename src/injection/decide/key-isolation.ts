// The rules that keep the key store out of the application's reach in a pod with the sidecar. The key
// store is a Secret volume mounted in the sidecar only; another container could still reach it by
// mounting the same volume or Secret, by reading the node's disk where the kubelet lays the Secret's
// files out (a hostPath volume, or a capability that escapes the container), by seeing the sidecar's
// processes (a shared process namespace, the host's) and reading their files through /proc/PID/root,
// which the kernel allows to a process of the same user or one holding CAP_SYS_PTRACE, or by being
// privileged. Each problem names the container or the volume.
import { ALL_CAPABILITIES } from '../contract.js';
import type { Container, PodSpec, SecurityContext, Volume } from '../pod.js';

/** Capabilities that reach another user's process: ptrace it, or become its user. */
export const REACHING_CAPABILITIES: readonly string[] = ['SYS_PTRACE', 'SETUID', ALL_CAPABILITIES];
const REACHING = new Set(REACHING_CAPABILITIES);

/**
 * The capabilities the Pod Security Standards' baseline profile lets a container add: none of them
 * escapes the container. Any other (SYS_ADMIN, DAC_READ_SEARCH, SYS_MODULE, ALL...) can reach the node.
 */
export const BASELINE_CAPABILITIES: readonly string[] = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];
const BASELINE = new Set(BASELINE_CAPABILITIES);

export interface IsolationInput {
  readonly spec: PodSpec;
  /** Every container of the pod but the sidecar. */
  readonly others: readonly Container[];
  /** The Secrets the sidecar reads its keys from. */
  readonly keystoreSecrets: readonly string[];
  /** The volumes the sidecar mounts them as. */
  readonly keystoreVolumes: readonly string[];
  /** The sidecar's user id, or null when the platform assigns it (then any container may share it). */
  readonly sidecarUser: number | null;
}

/** The capability as the container runtime reads it: upper case, without the CAP_ prefix. */
export const capabilityName = (name: string): string => name.toUpperCase().replace(/^CAP_/, '');

/** Why the application could reach the keys in this pod; empty when it cannot. */
export function keyIsolationProblems(input: IsolationInput): string[] {
  const { spec, others } = input;
  const problems: string[] = [];
  if (spec.hostPID === true)
    problems.push("the pod uses the host's process namespace (hostPID): every such pod on the node would see the keys");
  for (const volume of spec.volumes ?? []) {
    if (volume.hostPath !== undefined && volume.hostPath !== null)
      problems.push(`volume ${volume.name} is a hostPath: the node's disk holds the key files the kubelet lays out`);
    if (volume.gitRepo !== undefined && volume.gitRepo !== null)
      problems.push(`volume ${volume.name} is a gitRepo, which the kubelet clones on the node as root`);
  }
  const keyVolumes = new Set(
    (spec.volumes ?? [])
      .filter((volume) => input.keystoreSecrets.some((secret) => holdsSecret(volume, secret)))
      .map((v) => v.name),
  );
  for (const name of input.keystoreVolumes) keyVolumes.add(name);
  for (const container of others) {
    const name = `container ${container.name}`;
    if (container.securityContext?.privileged === true) problems.push(`${name} is privileged`);
    // Compared as written, as the Pod Security Standards and the chart's admission policy compare them.
    const beyond = (container.securityContext?.capabilities?.add ?? []).filter((c) => !BASELINE.has(c));
    if (beyond.length > 0)
      problems.push(`${name} adds the capability ${beyond.join(', ')}, beyond the baseline Pod Security Standard`);
    problems.push(...keyStoreReads(container, keyVolumes, input.keystoreSecrets));
  }
  // One by one: a pod may list more containers than a call can take arguments.
  if (spec.shareProcessNamespace === true) for (const problem of sharedNamespaceProblems(input)) problems.push(problem);
  return problems;
}

/**
 * In a shared process namespace each other container must run as a user that is neither root nor the
 * sidecar's, without a way to become another user (privilege escalation, SETUID) or to ptrace.
 */
function sharedNamespaceProblems(input: IsolationInput): string[] {
  const shared = 'the pod shares its process namespace (shareProcessNamespace)';
  if (input.sidecarUser === null)
    return [`${shared}, and the sidecar's user id is left to the platform, which may give every container the same`];
  const problems: string[] = [];
  for (const container of input.others) {
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
      REACHING.has(capabilityName(c)),
    );
    if (reaching.length > 0) problems.push(`${shared}: ${name} adds the capability ${reaching.join(', ')}`);
  }
  return problems;
}

/** How a container reads the key store: a volume holding it mounted, or the Secret in its environment. */
export function keyStoreReads(
  container: Container,
  keyVolumes: ReadonlySet<string>,
  keystoreSecrets: readonly string[],
  name = `container ${container.name}`,
): string[] {
  const problems: string[] = [];
  const mount = (container.volumeMounts ?? []).find((m) => keyVolumes.has(m.name));
  if (mount) problems.push(`${name} mounts volume ${mount.name}, which holds the key store Secret`);
  const read = keystoreSecrets.find((secret) => readsSecretIntoEnv(container, secret));
  if (read !== undefined) problems.push(`${name} reads the key store Secret ${read} into its environment`);
  return problems;
}

/** Whether a volume holds the Secret, whole or projected. */
export function holdsSecret(volume: Volume, secret: string): boolean {
  if (volume.secret?.secretName === secret) return true;
  return (volume.projected?.sources ?? []).some((source) => source.secret?.name === secret);
}

function readsSecretIntoEnv(container: Container, secret: string): boolean {
  return (
    (container.env ?? []).some((e) => e.valueFrom?.secretKeyRef?.name === secret) ||
    (container.envFrom ?? []).some((source) => source.secretRef?.name === secret)
  );
}
