// How a container that presents itself as the sidecar differs from what injection makes. Whatever it
// carries besides (a command of its own, an exec probe or hook, a volume or working directory the
// application can write, a variable such as NODE_OPTIONS, a looser security context) runs in the one
// process that holds the keys. Its variables, mount, probes and hook are held to allow-lists; its other
// fields to what the API server lets a container add (FORBIDDEN_FIELDS), judged by value where the API
// server fills a default in. The chart's admission policy enforces the same (both read contract.ts).
import { isRecord } from '../../text/is-record.js';
import { jsonText } from '../../text/json-text.js';
import {
  ALL_CAPABILITIES,
  CONFINING_PROFILES,
  FORBIDDEN_FIELDS,
  FORBIDDEN_SECURITY_FIELDS,
  LITERAL_ENV,
  LITERAL_VALUES,
  NO_TOKEN_VOLUME,
  OTHER_PROBE_ACTIONS,
  PROBE_ACTION,
  PROBES,
  PROC_MOUNT,
  SIDECAR_MOUNTS,
  sidecarEnvNames,
  TERMINATION_MESSAGE_PATH,
  TERMINATION_MESSAGE_POLICY,
  UNCONFINED,
  WAIT_READY_COMMAND,
} from '../contract.js';
import type { Container, EnvVar, Volume, VolumeMount } from '../pod.js';
import { EXPANSION } from './option-problems.js';
import { sidecarImageProblem } from './sidecar-version.js';

const ALLOWED_ENV = new Set(sidecarEnvNames());
const LITERAL = new Set(LITERAL_ENV);
const MOUNT_FIELDS = new Set(['name', 'mountPath', 'readOnly']);

/** Each way the container differs from an injected sidecar; empty when it is one. */
export function sidecarDeviations(
  container: Container,
  expected: {
    readonly repository: string;
    /** The image the injector writes, and the oldest version a carried sidecar may run. */
    readonly ownImage: string;
    readonly minimumVersion: string;
    readonly keystoreSecrets: readonly string[];
    /** The pod's volumes, which the sidecar's mounts name. */
    readonly volumes: readonly Volume[];
  },
): string[] {
  const found: string[] = [];
  const own = FORBIDDEN_FIELDS.filter((field) => container[field] !== undefined && container[field] !== null);
  if (own.length > 0) found.push(`it sets ${own.join(', ')}, which injection never does`);
  const path = container.terminationMessagePath;
  if (path !== undefined && path !== TERMINATION_MESSAGE_PATH)
    found.push('it sets a terminationMessagePath of its own');
  const image = sidecarImageProblem(container.image, expected);
  if (image !== null) found.push(image);
  const policy = container.terminationMessagePolicy;
  if (policy !== undefined && policy !== TERMINATION_MESSAGE_POLICY)
    found.push(`its terminationMessagePolicy may copy its log into the pod's status (${jsonText(policy)})`);
  const env = (container.env ?? []).map((e) => e.name).filter((name) => !ALLOWED_ENV.has(name));
  if (env.length > 0) found.push(`its env sets ${[...new Set(env)].join(', ')}, which injection never writes`);
  for (const entry of container.env ?? []) found.push(...envDeviations(entry, expected.keystoreSecrets));
  // The kubelet takes the last of a name given twice; what was judged may be the first.
  const twice = repeatedNames(container.env ?? []);
  if (twice.length > 0) found.push(`its env names ${twice.join(', ')} twice, which injection never does`);
  for (const problem of mountDeviations(container.volumeMounts ?? [], expected.volumes)) found.push(problem);
  for (const probe of PROBES) {
    const value = container[probe];
    const action = isRecord(value) && isRecord(value[PROBE_ACTION]);
    if (value !== undefined && (!action || OTHER_PROBE_ACTIONS.some((a) => a in value)))
      found.push(`its ${probe} is not an httpGet probe`);
  }
  if (container.lifecycle !== undefined && !isWaitReadyHook(container.lifecycle))
    found.push('its lifecycle hooks are not the wait-ready hook injection adds');
  found.push(...securityDeviations(container.securityContext));
  return found;
}

/** The names given more than once, each once, in one pass. */
function repeatedNames(env: readonly EnvVar[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const entry of env) (seen.has(entry.name) ? repeated : seen).add(entry.name);
  return [...repeated];
}

/**
 * How the sidecar's mounts differ from injection's: its two mounts and no other, each read-only at its
 * path with no subPath, the one over the token path an empty volume (anything else there would be read
 * by no one, but a sidecar that is not exactly injection's is not judged as one).
 */
function mountDeviations(mounts: readonly VolumeMount[], volumes: readonly Volume[]): string[] {
  const found: string[] = [];
  const names = mounts.map((mount) => mount.name);
  const wanted = SIDECAR_MOUNTS.map((mount) => mount.name);
  if (names.length !== wanted.length || wanted.some((name) => !names.includes(name)))
    found.push(
      `it mounts ${names.join(', ') || 'nothing'}; injection mounts ${wanted.join(' and ')}, and nothing else`,
    );
  for (const mount of mounts) {
    const want = SIDECAR_MOUNTS.find((candidate) => candidate.name === mount.name);
    const loose = Object.keys(mount).filter((field) => !MOUNT_FIELDS.has(field));
    if (want !== undefined && (mount.mountPath !== want.mountPath || mount.readOnly !== true || loose.length > 0))
      found.push(
        `its mount of ${mount.name} is not as injection writes it (read-only at ${want.mountPath}, no subPath)`,
      );
  }
  const empty = volumes.find((volume) => volume.name === NO_TOKEN_VOLUME);
  if (names.includes(NO_TOKEN_VOLUME) && (empty === undefined || !isEmptyDirOnly(empty)))
    found.push(`its volume ${NO_TOKEN_VOLUME} is not an emptyDir, as injection makes it`);
  return found;
}

const isEmptyDirOnly = (volume: Volume): boolean =>
  isRecord(volume.emptyDir) && Object.keys(volume).every((field) => field === 'name' || field === 'emptyDir');

/**
 * How one variable differs from what injection writes: its own settings as literal values of the form
 * it gives them, the others read from a ConfigMap or Secret under the variable's own name (never from a
 * key store Secret, whose text a setting that cannot parse it would repeat in the sidecar's log).
 */
function envDeviations(entry: EnvVar, keystoreSecrets: readonly string[]): string[] {
  const name = entry.name;
  if (typeof entry.value === 'string' && entry.value.includes(EXPANSION))
    return [`its ${name} holds "${EXPANSION}", which the kubelet expands from the variables before it`];
  if (LITERAL.has(name)) {
    if (entry.valueFrom !== undefined) return [`its env takes ${name} from valueFrom, where injection writes a value`];
    const form = LITERAL_VALUES[name];
    return form === undefined || form.test(entry.value ?? '')
      ? []
      : [`its ${name} is not of the form injection writes (${form.source})`];
  }
  const from = entry.valueFrom;
  if (from === undefined) return [];
  const reference = from.configMapKeyRef ?? from.secretKeyRef;
  const sources = Object.keys(from);
  if (sources.length !== 1 || reference?.key !== name)
    return [`its ${name} is not read from a ConfigMap or Secret key of its own name, as injection reads it`];
  if (from.secretKeyRef && keystoreSecrets.includes(from.secretKeyRef.name ?? ''))
    return [`its ${name} reads the key store Secret ${from.secretKeyRef.name ?? ''}`];
  return [];
}

function securityDeviations(context: Container['securityContext']): string[] {
  if (!isRecord(context)) return ['it has no security context'];
  const found: string[] = [];
  const own = FORBIDDEN_SECURITY_FIELDS.filter((field) => context[field] !== undefined);
  if (own.length > 0) found.push(`its securityContext sets ${own.join(', ')}`);
  if (context.privileged === true) found.push('it is privileged');
  if (context.runAsNonRoot !== true || context.allowPrivilegeEscalation !== false)
    found.push('its securityContext does not set runAsNonRoot: true and allowPrivilegeEscalation: false');
  if (context.readOnlyRootFilesystem !== true) found.push('its root filesystem is not read-only');
  if (context.runAsUser === 0) found.push('it runs as root');
  if (context.procMount !== undefined && context.procMount !== PROC_MOUNT)
    found.push(`its procMount is not ${PROC_MOUNT}`);
  for (const profile of CONFINING_PROFILES)
    if (isRecord(context[profile]) && context[profile].type === UNCONFINED)
      found.push(`its ${profile} is ${UNCONFINED}`);
  const capabilities = context.capabilities;
  if (
    (capabilities?.add ?? []).length > 0 ||
    // As injection writes it: the container runtime reads `all` too, but a carried sidecar is injection's.
    !(capabilities?.drop ?? []).includes(ALL_CAPABILITIES)
  )
    found.push('its capabilities are not dropped whole (drop ALL, add none)');
  return found;
}

function isWaitReadyHook(lifecycle: unknown): boolean {
  if (!isRecord(lifecycle) || Object.keys(lifecycle).join() !== 'postStart') return false;
  const postStart = lifecycle.postStart;
  if (!isRecord(postStart) || Object.keys(postStart).join() !== 'exec' || !isRecord(postStart.exec)) return false;
  const command = postStart.exec.command;
  return (
    Object.keys(postStart.exec).join() === 'command' &&
    Array.isArray(command) &&
    command.length === WAIT_READY_COMMAND.length &&
    command.every((word, index) => word === WAIT_READY_COMMAND[index])
  );
}

/** An image reference's repository: what stands before its tag or digest. */
export function repositoryOf(image: string): string {
  const at = image.indexOf('@');
  const name = at === -1 ? image : image.slice(0, at);
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? name.slice(0, colon) : name;
}
