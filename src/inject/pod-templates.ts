// Where each kind of workload keeps its pod template. Other kinds have none and pass through as they are.

/** The path from the object to its pod template ([] for a Pod: the object is the pod). */
export const POD_TEMPLATE_PATHS: Readonly<Record<string, readonly string[]>> = {
  Pod: [],
  Deployment: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
};

export interface KubeObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown; annotations?: unknown };
  [field: string]: unknown;
}

/** `Kind/name` (with its namespace when it has one), as kubectl names objects. */
export function describeObject(object: KubeObject): string {
  const name = typeof object.metadata?.name === 'string' ? object.metadata.name : '(no name)';
  const namespace = typeof object.metadata?.namespace === 'string' ? ` in namespace ${object.metadata.namespace}` : '';
  return `${String(object.kind)}/${name}${namespace}`;
}

export function valueAt(object: unknown, path: readonly string[]): unknown {
  let value = object;
  for (const key of path)
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}
