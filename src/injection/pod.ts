// The parts of Kubernetes objects the injection reads and writes. Every other field is carried along
// untouched, so the types stay open. What arrives is only believed to have this shape once
// podShapeProblems (pod-shape.ts) has found nothing wrong with it.

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
  valueFrom?: {
    secretKeyRef?: { name?: string; key?: string; optional?: boolean };
    configMapKeyRef?: { name?: string; key?: string; optional?: boolean };
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

export interface EnvFromSource {
  secretRef?: { name?: string };
  configMapRef?: { name?: string };
  [field: string]: unknown;
}

export interface SecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  [field: string]: unknown;
}

export interface Probe {
  httpGet?: { port?: number | string; [field: string]: unknown };
  tcpSocket?: { port?: number | string; [field: string]: unknown };
  grpc?: { port?: number; [field: string]: unknown };
  [field: string]: unknown;
}

export interface ResourceRequirements {
  requests?: Record<string, string | number>;
  limits?: Record<string, string | number>;
  [field: string]: unknown;
}

export interface VolumeMount {
  name: string;
  mountPath?: string;
  readOnly?: boolean;
  subPath?: string;
  [field: string]: unknown;
}

export interface Container {
  name: string;
  command?: string[];
  args?: string[];
  ports?: ContainerPort[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  volumeMounts?: VolumeMount[];
  securityContext?: SecurityContext;
  resources?: ResourceRequirements;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  restartPolicy?: string;
  [field: string]: unknown;
}

export interface Volume {
  name: string;
  secret?: { secretName?: string; [field: string]: unknown };
  hostPath?: { path?: string; [field: string]: unknown };
  gitRepo?: Record<string, unknown>;
  projected?: { sources?: { secret?: { name?: string; [field: string]: unknown }; [field: string]: unknown }[] };
  [field: string]: unknown;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Volume[];
  hostNetwork?: boolean;
  hostPID?: boolean;
  serviceAccountName?: string;
  /** The older name of serviceAccountName, still accepted by the API server. */
  serviceAccount?: string;
  shareProcessNamespace?: boolean;
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  securityContext?: SecurityContext;
  resources?: ResourceRequirements;
  os?: { name?: string };
  nodeSelector?: StringMap;
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: {
        nodeSelectorTerms?: { matchExpressions?: NodeSelectorRequirement[]; [field: string]: unknown }[];
      };
      [field: string]: unknown;
    };
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** A Pod, or the pod template of a workload: metadata and spec. */
export interface PodTemplate {
  metadata?: ObjectMeta;
  spec: PodSpec;
  [field: string]: unknown;
}

/** Every container of the pod that is not the sidecar: init, regular and ephemeral. */
export function allContainers(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...spec.containers, ...(spec.ephemeralContainers ?? [])];
}
