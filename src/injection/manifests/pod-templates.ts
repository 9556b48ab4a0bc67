// Where each kind of workload keeps its pod template. The kinds here are injected; another object
// that holds containers (a custom resource, a core PodTemplate) is left alone, and `inject` says so,
// since only its own controller knows whether an added container is welcome there.
import { nameFromMetadata } from '../object-name.js';

/** The path from the object to its pod template ([] for a Pod: the object is the pod). */
const TEMPLATE = ['spec', 'template'] as const;
const POD_TEMPLATE_PATHS: Readonly<Record<string, { readonly groups: readonly string[]; path: readonly string[] }>> = {
  Pod: { groups: [''], path: [] },
  Deployment: { groups: ['apps', 'extensions'], path: TEMPLATE },
  StatefulSet: { groups: ['apps'], path: TEMPLATE },
  DaemonSet: { groups: ['apps', 'extensions'], path: TEMPLATE },
  ReplicaSet: { groups: ['apps', 'extensions'], path: TEMPLATE },
  ReplicationController: { groups: [''], path: TEMPLATE },
  Job: { groups: ['batch'], path: TEMPLATE },
  CronJob: { groups: ['batch'], path: ['spec', 'jobTemplate', 'spec', 'template'] },
  // Argo Rollouts and OpenShift's DeploymentConfig carry a full pod template as a Deployment does.
  Rollout: { groups: ['argoproj.io'], path: TEMPLATE },
  DeploymentConfig: { groups: ['apps.openshift.io', ''], path: TEMPLATE },
};

export interface KubeObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; generateName?: unknown; namespace?: unknown; annotations?: unknown };
  [field: string]: unknown;
}

/** The API group of an object (`apps` of `apps/v1`; '' for the core `v1`). */
const groupOf = (object: KubeObject): string =>
  typeof object.apiVersion === 'string' && object.apiVersion.includes('/') ? object.apiVersion.split('/')[0]! : '';

/** Where the object's pod template is, when its kind is one the injection adds the sidecar to. */
export function podTemplatePath(object: KubeObject): readonly string[] | undefined {
  // Own kinds only: `constructor` or `__proto__` would find what every object inherits.
  const known =
    typeof object.kind === 'string' && Object.hasOwn(POD_TEMPLATE_PATHS, object.kind)
      ? POD_TEMPLATE_PATHS[object.kind]
      : undefined;
  return known && known.groups.includes(groupOf(object)) ? known.path : undefined;
}

/** `Kind/name`, as kubectl names an object; `Kind/prefix*` for one named by its generateName. */
export function objectName(object: KubeObject): string {
  return `${String(object.kind)}/${nameFromMetadata(object.metadata)}`;
}

/** `Kind/name`, with its namespace when it has one. */
export function describeObject(object: KubeObject): string {
  const namespace = typeof object.metadata?.namespace === 'string' ? ` in namespace ${object.metadata.namespace}` : '';
  return `${objectName(object)}${namespace}`;
}

/**
 * Whether a `containers` key appears anywhere in the value, as kubectl reads it: a value without one
 * holds no pod template. Walked without recursion, so that no nesting depth is too deep for it.
 */
export function mentionsContainers(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    if (!Array.isArray(next) && Object.hasOwn(next, 'containers')) return true;
    for (const member of Object.values(next)) pending.push(member);
  }
  return false;
}

export function valueAt(object: unknown, path: readonly string[]): unknown {
  let value = object;
  for (const key of path)
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}
