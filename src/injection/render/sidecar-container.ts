// The sidecar container and its key store volume, as injected into any pod. It runs as its own user
// (the image's nonroot, 65532, unless set otherwise or left to the platform), whatever the pod's
// securityContext says or omits, with the restricted profile; the key store Secret is mounted
// read-only as a directory (never with subPath, which would freeze it at the first version) with files
// every user of the container may read: the volume is mounted in this container only, and
// key-isolation.ts keeps every other container from reaching it.
import { SETTINGS } from '../../config/settings.js';
import type { Container, EnvVar, ResourceRequirements, Volume } from '../pod.js';
import type { PodOptions } from '../options.js';
import { settingsFromObjects } from './settings-from-objects.js';

export const SIDECAR_NAME = 'sfd-sidecar';
/** The environment variable application containers find the sidecar by. */
export const SIDECAR_URL_ENV = 'SFD_SIDECAR_URL';
export const KEYSTORE_VOLUME = 'sfd-sidecar-keystore';
export const ADMIN_PORT_NAME = 'sfd-admin';
export const KEYSTORE_MOUNT = '/etc/sfd-sidecar/keys';
/** r--r--r--: readable by the sidecar's user whether or not the pod sets fsGroup. */
export const KEYSTORE_FILE_MODE = 0o444;
/** Node and the entry script in the image, for the classic form's postStart hook. */
const IMAGE_NODE = '/nodejs/bin/node';
const IMAGE_SCRIPT = '/app/dist/src/main.js';
/** The startup probe's window: the application waits this long at most for the sidecar. */
const STARTUP_PERIOD_SECONDS = 1;
const STARTUP_FAILURE_THRESHOLD = 30;
/** A classic sidecar gets SIGTERM with the application and serves its last calls for this long. */
const CLASSIC_SHUTDOWN_DELAY_MS = 5000;

export function sidecarContainer(
  options: PodOptions,
  ports: { readonly signing: number; readonly admin: number },
): Container {
  const env: EnvVar[] = [
    { name: SETTINGS.listen.env, value: `127.0.0.1:${ports.signing}` },
    { name: SETTINGS.adminListen.env, value: `:${ports.admin}` },
    {
      name: SETTINGS.keystoreFile.env,
      value: options.keystoreLayout === 'per-profile' ? KEYSTORE_MOUNT : `${KEYSTORE_MOUNT}/${options.keystoreKey}`,
    },
    { name: SETTINGS.profile.env, value: options.profile },
    ...(options.upstreamUrl === null ? [] : [{ name: SETTINGS.upstreamUrl.env, value: options.upstreamUrl }]),
    ...(options.signatureVersion === null
      ? []
      : [{ name: SETTINGS.signatureVersion.env, value: options.signatureVersion }]),
    ...(options.mode === 'classic'
      ? [{ name: SETTINGS.shutdownDelayMs.env, value: String(CLASSIC_SHUTDOWN_DELAY_MS) }]
      : []),
    // Only the injection says which profiles a caller may pick: a ConfigMap or Secret the pod names
    // never gives these (settings-from-objects.ts), so a policy's check of them holds.
    ...(options.allowedProfiles.length === 0
      ? []
      : [
          { name: SETTINGS.allowedProfiles.env, value: options.allowedProfiles.join(',') },
          { name: SETTINGS.profileHeader.env, value: options.profileHeader! },
        ]),
  ];
  const fromObjects = settingsFromObjects(
    { configMap: options.envConfigMap, secret: options.envSecret },
    new Set(env.map((e) => e.name)),
  );
  const probe = (path: string) => ({ httpGet: { path, port: ADMIN_PORT_NAME } });
  return {
    name: SIDECAR_NAME,
    image: options.image,
    imagePullPolicy: options.imagePullPolicy,
    ...(options.mode === 'native' ? { restartPolicy: 'Always' } : {}),
    env: [...fromObjects, ...env],
    ports: [{ name: ADMIN_PORT_NAME, containerPort: ports.admin, protocol: 'TCP' }],
    startupProbe: {
      ...probe('/readyz'),
      periodSeconds: STARTUP_PERIOD_SECONDS,
      failureThreshold: STARTUP_FAILURE_THRESHOLD,
    },
    readinessProbe: { ...probe('/readyz'), periodSeconds: 5 },
    livenessProbe: { ...probe('/healthz'), periodSeconds: 10, failureThreshold: 3 },
    // Classic: the kubelet starts the next container (the application) once this hook has returned.
    ...(options.mode === 'classic'
      ? {
          lifecycle: {
            postStart: {
              exec: {
                command: [
                  IMAGE_NODE,
                  IMAGE_SCRIPT,
                  'wait-ready',
                  '--timeout-ms',
                  String(STARTUP_PERIOD_SECONDS * STARTUP_FAILURE_THRESHOLD * 1000),
                ],
              },
            },
          },
        }
      : {}),
    volumeMounts: [{ name: KEYSTORE_VOLUME, mountPath: KEYSTORE_MOUNT, readOnly: true }],
    securityContext: {
      runAsNonRoot: true,
      ...(options.sidecarUser === 'platform'
        ? {}
        : { runAsUser: options.sidecarUser, runAsGroup: options.sidecarUser }),
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    },
    resources: sidecarResources(options),
  };
}

/**
 * The key store Secret as a volume: whole, or with the per-profile layout only the files of the profiles
 * the pod uses, so that the pod holds no other profile's keys (a file missing fails the mount).
 */
export function keystoreVolume(secretName: string, profiles?: readonly string[]): Volume {
  const items = profiles?.map((profile) => ({ key: `${profile}.json`, path: `${profile}.json` }));
  return {
    name: KEYSTORE_VOLUME,
    secret: { secretName, defaultMode: KEYSTORE_FILE_MODE, ...(items ? { items } : {}) },
  };
}

/** The grace period a pod needs for the sidecar to drain (the classic form serves on first). */
export function shutdownNeedsSeconds(options: PodOptions): number {
  const drainMs = SETTINGS.shutdownTimeoutMs.default;
  return ((options.mode === 'classic' ? CLASSIC_SHUTDOWN_DELAY_MS : 0) + drainMs) / 1000;
}

/** The container's requests and limits from the options (no CPU limit unless one is set). */
export function sidecarResources(options: Pick<PodOptions, 'resources'>): ResourceRequirements {
  const { cpuRequest, memoryRequest, cpuLimit, memoryLimit } = options.resources;
  return {
    requests: { cpu: cpuRequest, memory: memoryRequest },
    limits: { ...(cpuLimit === '' ? {} : { cpu: cpuLimit }), memory: memoryLimit },
  };
}
