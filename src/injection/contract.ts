// What injection adds to a pod, defined once: the render writes it, and uninject, audit and the
// chart's admission policy (through a file generated from this one) read it back. A name or value
// that two of them spell on their own drifts apart, and then uninject leaves a piece behind or the
// policy refuses the pods injection makes.
import { SETTINGS } from '../config/settings.js';
import type { Volume, VolumeMount } from './pod.js';
import { SERVE_SETTINGS } from './serve-settings.js';
import { ADMIN_PATHS } from '../config/admin-paths.js';

export const PREFIX = 'sfd-sidecar.io/';

/**
 * The label a pod or a namespace asks with, or a pod opts out with: unlike an annotation, the webhook's
 * selectors can see it, so a pod that did not ask never reaches the webhook.
 */
export const INJECT_LABEL = `${PREFIX}inject`;
/**
 * The values of INJECT_LABEL that ask, on a pod or on a namespace (then every pod of it asks unless it
 * declines): both spellings on both objects, so that neither is ignored for being the other's. The
 * first is the one injection writes.
 */
export const ASKING_VALUES: readonly string[] = ['true', 'enabled'];
/** The values of INJECT_LABEL with which a pod of an asking namespace declines. */
export const DECLINING_VALUES: readonly string[] = ['false', 'disabled'];
export const asks = (value: unknown): boolean => typeof value === 'string' && ASKING_VALUES.includes(value);
export const declines = (value: unknown): boolean => typeof value === 'string' && DECLINING_VALUES.includes(value);
/** The value of INJECT_LABEL the documentation shows for a namespace. */
export const NAMESPACE_OPT_IN = 'enabled';
/** The label an injected pod carries: what a PodMonitor selects. */
export const INJECTED_LABEL = `${PREFIX}injected`;
/** The label of the injector's own pods, which the webhook never sees. */
export const INJECTOR_LABEL = `${PREFIX}injector`;
/** The namespace of the cluster's own components, which the webhook never judges. */
export const SYSTEM_NAMESPACE = 'kube-system';
/** The namespaces the webhook never sees: the cluster's own, and each injector's, which must not wait on itself. */
export const namespacesPassedOver = (injectorNamespaces: readonly string[]): string[] => [
  SYSTEM_NAMESPACE,
  ...injectorNamespaces,
];
/** The label the API server gives every namespace, its name: what the webhook excludes namespaces by. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** The webhook's paths, one per way a pod asks: the pod itself, or its namespace. */
export const WEBHOOK_PATHS = { pods: '/mutate', namespaces: '/mutate/namespace' } as const;

/** The annotations injection writes, saying what it did. */
export const WRITTEN = {
  /** `injected` once the sidecar is in the pod. */
  status: `${PREFIX}status`,
  /** The ports the sidecar listens on, `signing=P,admin=Q`. */
  ports: `${PREFIX}ports`,
  /** The sidecar's version, as `sfd-sidecar --version` prints it. */
  version: `${PREFIX}version`,
  /**
   * `added` when injection labelled the pod INJECT_LABEL itself (a pod `inject` or the Kustomize component
   * was given carries the label, so that the webhook judges it and the admission policy admits it);
   * uninject takes the label away again.
   */
  injectLabel: `${PREFIX}inject-label`,
  /**
   * The fields `inject` filled that were empty (`[]`, `{}`) or null in its input, as `PATH=[]` items
   * (`spec.volumes=[],spec.containers.app.env=null`): uninject leaves them so again rather than take
   * them away, so that uninject gives back the manifest inject was given.
   */
  wasEmpty: `${PREFIX}was-empty`,
  /**
   * The application containers (names, comma-separated) whose SFD_SIDECAR_URL `inject` found already set
   * to the value it writes and kept: uninject leaves it there, since inject did not add it.
   */
  keptSidecarUrl: `${PREFIX}kept-sidecar-url`,
  /**
   * Written by the webhook on every pod it admits: `injected`, or `skipped: <reason>`. A pod it refuses
   * never exists; its controller's events carry the reason instead.
   */
  decision: `${PREFIX}decision`,
} as const;

export const DECISION = WRITTEN.decision;

export const LABEL_ADDED = 'added';

/** The value of WRITTEN.ports for the ports the sidecar listens on. */
export const portsAnnotation = (ports: { readonly signing: number; readonly admin: number }): string =>
  `signing=${ports.signing},admin=${ports.admin}`;

/** The ports WRITTEN.ports names, or null when it is not a value injection writes. */
export function portsFromAnnotation(text: string | undefined): { signing: number; admin: number } | null {
  const match = /^signing=(\d{1,5}),admin=(\d{1,5})$/.exec(text ?? '');
  return match ? { signing: Number(match[1]), admin: Number(match[2]) } : null;
}

/** What each written annotation says, for the reference page. */
export const WRITTEN_MEANING: Readonly<Record<keyof typeof WRITTEN, string>> = {
  status: '`injected` once the sidecar is in the pod (a second injection adds nothing)',
  ports: 'the ports the sidecar listens on, `signing=P,admin=Q`',
  version: 'the version of the sidecar, as `sfd-sidecar --version` prints it (what upgrades compare)',
  injectLabel: `\`${LABEL_ADDED}\` when injection added the inject label itself; uninject takes the label away again`,
  wasEmpty:
    'written by `inject`: the fields it filled that were empty or null in its input ' +
    '(`spec.volumes=[],spec.containers.app.env=null`), which uninject leaves so again',
  keptSidecarUrl:
    'written by `inject`: the application containers (`app,worker`) that already set `SFD_SIDECAR_URL` to ' +
    'the sidecar it adds, whose variable uninject leaves',
  decision:
    'written by the webhook on each pod it admits: `injected`, or `skipped: REASON` (a reason of the table ' +
    'below); `sfd-sidecar check --pod` reads it',
};

export const INJECTED_STATUS = 'injected';

/** Where Prometheus finds the sidecar when the pod names no scrape target of its own. */
export const PROMETHEUS_ANNOTATIONS = ['prometheus.io/scrape', 'prometheus.io/port', 'prometheus.io/path'] as const;
export const METRICS_PATH = ADMIN_PATHS.metrics;

export const SIDECAR_NAME = 'sfd-sidecar';
/** The environment variable application containers find the sidecar by. */
export const SIDECAR_URL_ENV = 'SFD_SIDECAR_URL';
export const KEYSTORE_VOLUME = 'sfd-sidecar-keystore';
export const KEYSTORE_MOUNT = '/etc/sfd-sidecar/keys';
/** r--r--r--: readable by the sidecar's user whether or not the pod sets fsGroup. */
export const KEYSTORE_FILE_MODE = 0o444;
export const ADMIN_PORT_NAME = 'sfd-admin';

/**
 * An empty volume the sidecar mounts where the ServiceAccount admission plugin puts the pod's API
 * token: the plugin leaves a container that already mounts that path alone, so the sidecar, which never
 * calls the Kubernetes API, holds no token whatever the pod's automount setting. Not named
 * `kube-api-access-*`: the plugin takes a volume of that name for the token it mounts everywhere else.
 */
export const NO_TOKEN_VOLUME = 'sfd-sidecar-no-token';
export const TOKEN_MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The sidecar's mounts, exactly as injection writes them: the process that holds the keys mounts no other. */
export const SIDECAR_MOUNTS: readonly Readonly<VolumeMount>[] = [
  { name: KEYSTORE_VOLUME, mountPath: KEYSTORE_MOUNT, readOnly: true },
  { name: NO_TOKEN_VOLUME, mountPath: TOKEN_MOUNT, readOnly: true },
];

/** The volume behind the token mount: empty, and nothing but empty. */
export const noTokenVolume = (): Volume => ({ name: NO_TOKEN_VOLUME, emptyDir: {} });

/** The volumes injection adds to a pod, by name: what uninject takes away again. */
export const INJECTED_VOLUMES: readonly string[] = [KEYSTORE_VOLUME, NO_TOKEN_VOLUME];

/** Node and the entry script in the image, for the classic form's postStart hook. */
const IMAGE_NODE = '/nodejs/bin/node';
const IMAGE_SCRIPT = '/app/dist/src/main.js';
/** The startup probe's window: the application waits this long at most for the sidecar. */
export const STARTUP_PERIOD_SECONDS = 1;
export const STARTUP_FAILURE_THRESHOLD = 30;
/** A classic sidecar gets SIGTERM with the application and serves its last calls for this long. */
export const CLASSIC_SHUTDOWN_DELAY_MS = 5000;

/** The classic form's postStart hook: the kubelet starts the application once it returns. */
export const WAIT_READY_COMMAND: readonly string[] = [
  IMAGE_NODE,
  IMAGE_SCRIPT,
  'wait-ready',
  '--timeout-ms',
  String(STARTUP_PERIOD_SECONDS * STARTUP_FAILURE_THRESHOLD * 1000),
];

/** The capability name that stands for every capability: the sidecar drops it, and keeps none. */
export const ALL_CAPABILITIES = 'ALL';

/** The sidecar's restricted security context; its user and group unless the platform assigns them. */
export function sidecarSecurityContext(user: number | 'platform'): Record<string, unknown> {
  return {
    runAsNonRoot: true,
    ...(user === 'platform' ? {} : { runAsUser: user, runAsGroup: user }),
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: [ALL_CAPABILITIES] },
    seccompProfile: { type: 'RuntimeDefault' },
  };
}

/** The variables injection itself writes into the sidecar's environment. */
export const INJECTED_ENV: readonly string[] = [
  SETTINGS.listen.env,
  SETTINGS.adminListen.env,
  SETTINGS.keystoreFile.env,
  SETTINGS.profile.env,
  SETTINGS.upstreamUrl.env,
  SETTINGS.signatureVersion.env,
  SETTINGS.shutdownDelayMs.env,
  SETTINGS.allowedProfiles.env,
  SETTINGS.profileHeader.env,
  SETTINGS.operations.env,
];

/**
 * The variables an injected sidecar always holds as literal values: where it listens, where its keys
 * are and which profiles it signs as. No ConfigMap or Secret may give them.
 */
export const LITERAL_ENV: readonly string[] = [
  SETTINGS.listen.env,
  SETTINGS.adminListen.env,
  SETTINGS.keystoreFile.env,
  SETTINGS.profile.env,
  SETTINGS.allowedProfiles.env,
  SETTINGS.profileHeader.env,
  SETTINGS.operations.env,
];

/**
 * What the literal values injection writes must look like: the signing listener on loopback, the admin
 * listener on every address of the pod, the key store under KEYSTORE_MOUNT. Regular expressions the
 * rules (JavaScript) and the admission policy (CEL's RE2) both read, so written in what both accept.
 */
export const LITERAL_VALUES: Readonly<Record<string, RegExp>> = {
  [SETTINGS.listen.env]: /^127\.0\.0\.1:[0-9]{1,5}$/,
  [SETTINGS.adminListen.env]: /^:[0-9]{1,5}$/,
  [SETTINGS.keystoreFile.env]: /^\/etc\/sfd-sidecar\/keys(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)?$/,
};

/** The termination message policy every container gets by default, and the only one a sidecar keeps. */
export const TERMINATION_MESSAGE_POLICY = 'File';
/** The terminationMessagePath every container gets by default, and the only one a sidecar keeps. */
export const TERMINATION_MESSAGE_PATH = '/dev/termination-log';

/** The securityContext fields injection never sets on the sidecar: they change what its process may do. */
export const FORBIDDEN_SECURITY_FIELDS: readonly string[] = ['seLinuxOptions', 'windowsOptions'];
/** The only procMount a sidecar keeps: the default, which masks the node's /proc. */
export const PROC_MOUNT = 'Default';
/** The profiles of a security context a sidecar may not set to UNCONFINED. */
export const CONFINING_PROFILES: readonly string[] = ['seccompProfile', 'appArmorProfile'];
export const UNCONFINED = 'Unconfined';

/** The sidecar's probes: each an httpGet (PROBE_ACTION), never a command or another action. */
export const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;
export const PROBE_ACTION = 'httpGet';
export const OTHER_PROBE_ACTIONS: readonly string[] = ['exec', 'tcpSocket', 'grpc'];

/** The file of one profile's keys in the per-profile layout: the profile's name and this. */
export const PROFILE_FILE_SUFFIX = '.json';

/**
 * Settings a ConfigMap or Secret the pod names may never give: where the keys come from, files of
 * settings, and which profiles the sidecar signs as (only the injection says that, so a policy's check
 * of them holds).
 */
const NEVER_FROM_OBJECTS = new Set<string>([
  SETTINGS.envFile.env,
  SETTINGS.keystoreFile.env,
  SETTINGS.accessKeyId.env,
  SETTINGS.accessKeySecret.env,
  SETTINGS.accessKeySecretFile.env,
  SETTINGS.profile.env,
  SETTINGS.allowedProfiles.env,
  SETTINGS.profileHeader.env,
  SETTINGS.operations.env,
]);

/** The variables `serve` reads that a ConfigMap or Secret the pod names may set, less those injection set. */
export function settingsObjectsMaySet(setByInjection: ReadonlySet<string>): string[] {
  return SERVE_SETTINGS.map((setting) => setting.env).filter(
    (name) => !NEVER_FROM_OBJECTS.has(name) && !setByInjection.has(name),
  );
}

/** Every variable an injected sidecar's environment may hold: what the admission policy admits. */
export function sidecarEnvNames(): string[] {
  return [...new Set([...INJECTED_ENV, ...settingsObjectsMaySet(new Set())])];
}

/**
 * The container fields injection never sets that would change what the sidecar's process runs or
 * reads: its command, a working directory, variables by the batch, devices, a terminal. Named one by
 * one rather than as an allow-list because the admission policy's CEL can test a field of a typed
 * object but not list them; a field the Container API gains later is not in this list.
 */
export const FORBIDDEN_FIELDS: readonly string[] = [
  'command',
  'args',
  'workingDir',
  'envFrom',
  'volumeDevices',
  'stdin',
  'stdinOnce',
  'tty',
];
