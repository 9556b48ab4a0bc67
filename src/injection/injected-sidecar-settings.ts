// The injected sidecar's settings: the defaults of every pod `inject` and `injector` add a sidecar to, each
// one a pod's annotation may override (options.ts).
import { defineSettings, INJECT_COMMANDS, type SettingDefinition } from '../config/setting-definition.js';
import { oneOf, quantity, text } from '../config/setting-kinds.js';
import { fail, ok, parseInteger, parseObjectName, type Parsed } from '../config/parsers.js';
import { IMAGE_REPOSITORY } from '../version.js';
import { MIN_MEMORY_LIMIT, MIN_MEMORY_LIMIT_BYTES } from './sidecar-memory.js';

export const KEYSTORE_LAYOUTS = ['file', 'per-profile'] as const;
export type KeystoreLayout = (typeof KEYSTORE_LAYOUTS)[number];
/** native: an init container with restartPolicy Always; classic: the first container with a postStart wait. */
export const INJECTION_MODES = ['native', 'classic'] as const;
export type InjectionMode = (typeof INJECTION_MODES)[number];
export const IMAGE_PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
export type ImagePullPolicy = (typeof IMAGE_PULL_POLICIES)[number];
/** The sidecar's user id, or `platform` to leave it to the platform's policy. */
export type SidecarUser = number | 'platform';

export function parseSidecarUser(raw: string): Parsed<SidecarUser> {
  const text = raw.trim();
  if (text === 'platform') return ok('platform');
  const parsed = parseInteger(1, 2147483647)(text);
  return parsed.ok ? parsed : { ok: false, allowed: 'a user id from 1 to 2147483647, or platform' };
}

export const INJECTED_SIDECAR_SETTINGS = defineSettings({
  image: {
    env: 'SFD_IMAGE',
    description: 'the sidecar image added to pods',
    ...text('an image reference'),
    defaultText: `${IMAGE_REPOSITORY}:VERSION (this build's version)`,
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<string>,
  sidecarMinVersion: {
    env: 'SFD_SIDECAR_MIN_VERSION',
    description:
      'the oldest sidecar version a pod may already carry (inject or a manifest injected before): a carried ' +
      'sidecar must run SFD_IMAGE exactly or its repository at a version tag no older',
    parse: (raw: string): Parsed<string> =>
      /^\d{1,9}\.\d{1,9}\.\d{1,9}$/.test(raw.trim()) ? ok(raw.trim()) : fail('X.Y.Z'),
    allowed: 'a version, X.Y.Z',
    defaultText: "VERSION (this build's version)",
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<string>,
  keystoreSecret: {
    env: 'SFD_KEYSTORE_SECRET',
    description:
      "the Secret holding the key store, in each pod's namespace; a pod's sfd-sidecar.io/keystore-secret " +
      'annotation wins',
    parse: parseObjectName,
    allowed: 'a Secret name',
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<string>,
  keystoreSecretKey: {
    env: 'SFD_KEYSTORE_SECRET_KEY',
    description: 'the key of that Secret holding the key store file',
    ...text('a Secret key'),
    default: 'keystore.json',
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<string>,
  keystoreLayout: {
    env: 'SFD_KEYSTORE_LAYOUT',
    description:
      'how the key store Secret is laid out: file (one key store file, SFD_KEYSTORE_SECRET_KEY, mounted with ' +
      'the whole Secret) or per-profile (one <profile>.json per profile, each holding that profile with its ' +
      'secrets inline; a pod mounts only the files of the profiles it uses, and one missing fails its mount)',
    ...oneOf(KEYSTORE_LAYOUTS),
    default: 'file',
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<KeystoreLayout>,
  sidecarMode: {
    env: 'SFD_SIDECAR_MODE',
    description:
      'native: an init container with restartPolicy Always (Kubernetes 1.29+); classic: the first container, ' +
      "with a postStart wait; a pod's sfd-sidecar.io/mode annotation wins",
    ...oneOf(INJECTION_MODES),
    default: 'native',
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<InjectionMode>,
  imagePullPolicy: {
    env: 'SFD_IMAGE_PULL_POLICY',
    description: 'when the kubelet pulls the sidecar image: Always, IfNotPresent or Never',
    ...oneOf(IMAGE_PULL_POLICIES),
    default: 'IfNotPresent',
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<ImagePullPolicy>,
  sidecarCpuRequest: {
    env: 'SFD_SIDECAR_CPU_REQUEST',
    description: "the sidecar's CPU request; a pod's sfd-sidecar.io/cpu-request annotation wins",
    ...quantity('a CPU quantity (50m, 0.1, 1)', 'cpu'),
    default: '50m',
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<string>,
  sidecarMemoryRequest: {
    env: 'SFD_SIDECAR_MEMORY_REQUEST',
    description: "the sidecar's memory request; a pod's sfd-sidecar.io/memory-request annotation wins",
    ...quantity('a memory quantity (96Mi, 128Mi, 1Gi)', 'memory'),
    default: '96Mi',
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<string>,
  sidecarCpuLimit: {
    env: 'SFD_SIDECAR_CPU_LIMIT',
    description: "the sidecar's CPU limit, none when empty; a pod's sfd-sidecar.io/cpu-limit annotation wins",
    ...quantity('a CPU quantity, or empty for none', 'cpu', true),
    default: '',
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<string>,
  sidecarMemoryLimit: {
    env: 'SFD_SIDECAR_MEMORY_LIMIT',
    description:
      `the sidecar's memory limit, at least what its heap cap and runtime need (${MIN_MEMORY_LIMIT}); a pod's ` +
      'sfd-sidecar.io/memory-limit annotation wins',
    ...quantity(`a memory quantity of at least ${MIN_MEMORY_LIMIT}`, 'memory', false, MIN_MEMORY_LIMIT_BYTES),
    default: MIN_MEMORY_LIMIT,
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<string>,
  sidecarUser: {
    env: 'SFD_SIDECAR_USER',
    description:
      'the user id the injected sidecar runs as (and its group), or platform to leave both to the platform ' +
      "(OpenShift's restricted-v2 assigns them); a pod's sfd-sidecar.io/sidecar-user annotation wins",
    parse: parseSidecarUser,
    allowed: 'a user id from 1 to 2147483647, or platform',
    default: 65532,
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<SidecarUser>,
});
