// The parts of Kubernetes objects the injection reads and writes. Every other field is carried along
// untouched, so the types stay open.

export type StringMap = Record<string, string>;

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  labels?: StringMap;
  annotations?: StringMap;
  [field: string]: unknown;
}

export interface ContainerPort {
  containerPort: number;
  hostPort?: number;
  name?: string;
  protocol?: string;
}

export interface EnvVar {
  name: string;
  value?: string;
  [field: string]: unknown;
}

export interface Container {
  name: string;
  ports?: ContainerPort[];
  env?: EnvVar[];
  [field: string]: unknown;
}

export interface Volume {
  name: string;
  [field: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  hostNetwork?: boolean;
  terminationGracePeriodSeconds?: number;
  [field: string]: unknown;
}

/** A Pod, or the pod template of a workload: metadata and spec. */
export interface PodTemplate {
  metadata?: ObjectMeta;
  spec: PodSpec;
  [field: string]: unknown;
}
