// The sidecar container and its key store volume, as injected into any pod. It runs as its own user
// (the image's nonroot, 65532, unless set otherwise or left to the platform), whatever the pod's
// securityContext says or omits, with the restricted profile; the key store Secret is mounted
// read-only as a directory (never with subPath, which would freeze it at the first version) with files
// every user of the container may read: the volume is mounted in this container only, and the key
// isolation rules keep every other container from reaching it.
import { SETTINGS } from '../../config/settings.js';
import {
  ADMIN_PORT_NAME,
  CLASSIC_SHUTDOWN_DELAY_MS,
  KEYSTORE_FILE_MODE,
  KEYSTORE_MOUNT,
  KEYSTORE_VOLUME,
  SIDECAR_MOUNTS,
  SIDECAR_NAME,
  sidecarSecurityContext,
  STARTUP_FAILURE_THRESHOLD,
  STARTUP_PERIOD_SECONDS,
  WAIT_READY_COMMAND,
} from '../contract.js';
import type { ChosenPorts } from '../decide/choose-ports.js';
import type { Narrowing } from '../decide/operations-narrowing.js';
import { formatOperationsSetting } from '../../operations/operations-setting.js';
import { podProfiles, type PodOptions } from '../options.js';
import type { Container, EnvVar, Volume } from '../pod.js';
import { sidecarResources } from '../sidecar-resources.js';
import { settingsFromObjects } from './settings-from-objects.js';
import { ADMIN_PATHS } from '../../config/admin-paths.js';

export function sidecarContainer(options: PodOptions, ports: ChosenPorts, narrowing: Narrowing): Container {
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
    ...(options.allowedProfiles.length === 0
      ? []
      : [
          { name: SETTINGS.allowedProfiles.env, value: options.allowedProfiles.join(',') },
          { name: SETTINGS.profileHeader.env, value: options.profileHeader! },
        ]),
    // Always written, naming every profile the sidecar may sign with: a ConfigMap can never set it.
    { name: SETTINGS.operations.env, value: formatOperationsSetting(narrowing) },
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
      ...probe(ADMIN_PATHS.ready),
      periodSeconds: STARTUP_PERIOD_SECONDS,
      failureThreshold: STARTUP_FAILURE_THRESHOLD,
    },
    readinessProbe: { ...probe(ADMIN_PATHS.ready), periodSeconds: 5 },
    livenessProbe: { ...probe(ADMIN_PATHS.health), periodSeconds: 10, failureThreshold: 3 },
    // Classic: the kubelet starts the next container (the application) once this hook has returned.
    ...(options.mode === 'classic' ? { lifecycle: { postStart: { exec: { command: [...WAIT_READY_COMMAND] } } } } : {}),
    volumeMounts: SIDECAR_MOUNTS.map((mount) => ({ ...mount })),
    securityContext: sidecarSecurityContext(options.sidecarUser),
    resources: sidecarResources(options),
  };
}

/**
 * The key store Secret as a volume: whole, or with the per-profile layout only the files of the profiles
 * the pod uses, so that the pod holds no other profile's keys (a file missing fails the mount).
 */
export function keystoreVolume(options: PodOptions): Volume {
  const profiles = options.keystoreLayout === 'per-profile' ? podProfiles(options) : undefined;
  const items = profiles?.map((profile) => ({ key: `${profile}.json`, path: `${profile}.json` }));
  return {
    name: KEYSTORE_VOLUME,
    secret: { secretName: options.keystoreSecret!, defaultMode: KEYSTORE_FILE_MODE, ...(items ? { items } : {}) },
  };
}

/** The grace period a pod needs for the sidecar to drain (the classic form serves on first). */
export function shutdownNeedsSeconds(options: PodOptions): number {
  const drainMs = SETTINGS.shutdownTimeoutMs.default;
  return ((options.mode === 'classic' ? CLASSIC_SHUTDOWN_DELAY_MS : 0) + drainMs) / 1000;
}
