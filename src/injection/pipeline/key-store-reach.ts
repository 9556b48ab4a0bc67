// Containers anywhere in a manifest, and those of them that would read the key store. An object of a kind
// inject does not add the sidecar to (a KEDA ScaledJob, an Argo Workflow, a Knative Service, a core
// PodTemplate, any custom resource) still holds containers that its controller makes into pods, at paths
// only that controller knows: a container there that mounts the key store Secret, or reads it into its
// environment, gets every key of it with no sidecar in the way. Each container-like object is found by its
// shape wherever it is (an object with an image, environment or volume mounts), and judged by the key
// isolation rules' own test of what reads the key store. Walked without recursion and without copying
// paths, so that no nesting depth is too deep for it and its steps stay linear in the document's size;
// only the paths it reports are spelled out, and at most MAX_REPORTED of them.
import { holdsSecret, keyStoreReads } from '../decide/key-isolation.js';
import { annotationOf } from '../options.js';
import type { Container, EnvVar, Volume, VolumeMount } from '../pod.js';

type Json = Record<string, unknown>;
type Key = string | number;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const objectsIn = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

const KEYSTORE_SECRET_ANNOTATION = annotationOf('keystoreSecret')!;
/** The most containers a message names; a document holding more says how many it left unnamed. */
const MAX_REPORTED = 20;

/** A value met in the walk: its parent's entry and its key there, from which its path is spelled. */
interface Entry {
  readonly value: unknown;
  readonly parent: Entry | null;
  readonly key: Key | null;
}

export interface FoundContainer {
  readonly container: Json;
  /** The path from the document to the container, spelled out when asked for. */
  path(): Key[];
}

/** Where a path points, as kubectl's JSONPath writes it: `spec.templates[0].container`. */
export const describePath = (path: readonly Key[]): string =>
  path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? key : `.${key}`)).join('');

const pathOf = (entry: Entry): Key[] => {
  const keys: Key[] = [];
  for (let at: Entry | null = entry; at !== null && at.key !== null; at = at.parent) keys.push(at.key);
  return keys.reverse();
};

const isContainerLike = (value: Json): boolean =>
  typeof value.image === 'string' || ['env', 'envFrom', 'volumeMounts'].some((field) => Array.isArray(value[field]));

/**
 * Every container-like object in the value in document order, the volumes declared anywhere beside them,
 * and the key store Secrets any pod template in it names by annotation; `skip` (a pod template judged
 * already) is not walked.
 */
export function findContainers(
  value: unknown,
  skip: object | null = null,
): { containers: FoundContainer[]; volumes: Json[]; named: string[] } {
  const containers: FoundContainer[] = [];
  const volumes: Json[] = [];
  const named: string[] = [];
  const seen = new Set<object>();
  const pending: Entry[] = [{ value, parent: null, key: null }];
  while (pending.length > 0) {
    const entry = pending.pop()!;
    const next = entry.value;
    if (next === null || typeof next !== 'object' || next === skip || seen.has(next)) continue;
    seen.add(next);
    const members: [Key, unknown][] = Array.isArray(next)
      ? next.map((member, index) => [index, member])
      : Object.entries(next as Json);
    if (!Array.isArray(next)) {
      const object = next as Json;
      if (entry.parent !== null && isContainerLike(object))
        containers.push({ container: object, path: () => pathOf(entry) });
      volumes.push(...objectsIn(object.volumes));
      const annotation = isObject(object.annotations) ? object.annotations[KEYSTORE_SECRET_ANNOTATION] : undefined;
      if (typeof annotation === 'string') named.push(annotation);
    }
    for (let i = members.length - 1; i >= 0; i -= 1)
      pending.push({ value: members[i]![1], parent: entry, key: members[i]![0] });
  }
  return { containers, volumes, named };
}

/** The places named, and a last line for those left unnamed. */
const capped = (lines: string[], total: number, what: string): string[] =>
  total > lines.length ? [...lines, `and ${total - lines.length} more ${what}`] : lines;

/** Where the value holds containers: each list of them (`spec.template.spec.containers`), or a lone one. */
export function containerPlaces(value: unknown): string[] {
  const { containers } = findContainers(value);
  const places = new Set<string>();
  for (const found of containers.slice(0, MAX_REPORTED)) {
    const path = found.path();
    places.add(describePath(typeof path.at(-1) === 'number' ? path.slice(0, -1) : path));
  }
  return capped([...places], places.size + Math.max(0, containers.length - MAX_REPORTED), 'containers');
}

/**
 * How containers in the value (but those of `judged`, a pod template the rules weighed already) would read
 * a key store Secret: the default one, or one a pod template in it names by annotation, as the admission
 * policy counts them. Each problem is led by where the container is; empty when none would.
 */
export function keyStoreReaches(value: unknown, defaultSecret: string | null, judged: object | null = null): string[] {
  const { containers, volumes, named } = findContainers(value, judged);
  const keystoreSecrets = [...new Set([...(defaultSecret === null ? [] : [defaultSecret]), ...named])];
  if (keystoreSecrets.length === 0) return [];
  const keyVolumes = new Set(
    volumes
      .filter((volume) => typeof volume.name === 'string')
      .filter((volume) => keystoreSecrets.some((secret) => holdsSecret(asVolume(volume), secret)))
      .map((volume) => volume.name as string),
  );
  const problems: string[] = [];
  let readers = 0;
  for (const found of containers) {
    const { container } = found;
    const name = typeof container.name === 'string' ? `container ${container.name}` : 'the container';
    const reads = keyStoreReads(asContainer(container), keyVolumes, keystoreSecrets, name);
    if (reads.length === 0) continue;
    readers += 1;
    if (readers <= MAX_REPORTED) problems.push(...reads.map((read) => `at ${describePath(found.path())}: ${read}`));
  }
  return capped(problems, problems.length + Math.max(0, readers - MAX_REPORTED), 'containers that read it');
}

/** The fields the rules read, of the types the rules expect; whatever else the object holds is left out. */
function asContainer(object: Json): Container {
  return {
    name: typeof object.name === 'string' ? object.name : '',
    env: objectsIn(object.env).filter((e) => e.valueFrom === undefined || isObject(e.valueFrom)) as unknown as EnvVar[],
    envFrom: objectsIn(object.envFrom),
    volumeMounts: objectsIn(object.volumeMounts).filter((m) => typeof m.name === 'string') as unknown as VolumeMount[],
  };
}

function asVolume(object: Json): Volume {
  const projected = isObject(object.projected) ? { sources: objectsIn(object.projected.sources) } : undefined;
  return {
    name: object.name as string,
    ...(isObject(object.secret) ? { secret: object.secret } : {}),
    ...(projected ? { projected } : {}),
  };
}
