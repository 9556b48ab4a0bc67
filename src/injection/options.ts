// Every option of the injected sidecar, one row each: the setting that gives every pod's default (the
// flags and SFD_* variables of `inject` and `injector`), the pod annotation that overrides it, how the
// annotation is read, and what it means. A new option is one row here and one line in the render.
import { parseInteger, parseObjectName, parseOneOf, parseUpstreamUrl, type Parsed } from '../config/parsers.js';
import { parseHeaderName, parseProfileList, parseProfileName } from '../config/profile-parsers.js';
import { parseResourceQuantity } from '../config/quantity-parsers.js';
import { quoteValue } from '../config/quote-value.js';
import type { SettingReader } from '../config/setting-reader.js';
import type { SettingDefinition } from '../config/setting-definition.js';
import { SETTINGS } from '../config/settings.js';
import { SIGNATURE_VERSIONS, type SignatureVersion } from '../signing/types.js';
import { IMAGE_REPOSITORY, VERSION } from '../version.js';
import { PREFIX } from './contract.js';
import { parseOperationItems, type OperationItem } from '../operations/operation-rules.js';
import {
  INJECTED_SIDECAR_SETTINGS,
  INJECTION_MODES,
  parseSidecarUser,
  type ImagePullPolicy,
  type InjectionMode,
  type KeystoreLayout,
  type SidecarUser,
} from './injected-sidecar-settings.js';

export { INJECTION_MODES, type InjectionMode, type SidecarUser } from './injected-sidecar-settings.js';

/** The settings the injection reads: the sidecar's own it passes on, and its own defaults. */
const READ = { ...SETTINGS, ...INJECTED_SIDECAR_SETTINGS };

export interface InjectionOptions {
  readonly image: string;
  readonly imagePullPolicy: ImagePullPolicy;
  /** The oldest version of the sidecar a pod may carry. */
  readonly minimumVersion: string;
  /** null when none is set anywhere. */
  readonly keystoreSecret: string | null;
  readonly keystoreKey: string;
  readonly keystoreLayout: KeystoreLayout;
  readonly profile: string;
  /** null to leave it to the key store's profiles. */
  readonly upstreamUrl: string | null;
  /** null for the sidecar's own default. */
  readonly signatureVersion: SignatureVersion | null;
  readonly mode: InjectionMode;
  readonly sidecarUser: SidecarUser;
  readonly cpuRequest: string;
  readonly memoryRequest: string;
  /** Empty: no CPU limit. */
  readonly cpuLimit: string;
  readonly memoryLimit: string;
  readonly signingPort: number;
  readonly adminPort: number;
  readonly envConfigMap: string | null;
  readonly envSecret: string | null;
  /** Empty: a caller cannot pick a profile per request. */
  readonly allowedProfiles: readonly string[];
  readonly profileHeader: string | null;
  /** The operations the pod asks to be limited to, within what its entitlement grants; null: no ask. */
  readonly operations: readonly OperationItem[] | null;
}

/** The options for one pod, and whether its signing port was fixed by its annotation. */
export interface PodOptions extends InjectionOptions {
  readonly signingPortFromAnnotation: boolean;
}

interface OptionRow<T> {
  /** The setting giving every pod's default; none when only a pod's annotation sets it. */
  readonly setting?: SettingDefinition;
  /** The pod annotation that overrides the default, under sfd-sidecar.io/. */
  readonly annotation?: string;
  readonly parse?: (raw: string) => Parsed<T>;
  /** The default from the settings. */
  readonly fromSettings: (r: SettingReader) => T;
  readonly description: string;
}

type OptionTable = { readonly [K in keyof InjectionOptions]: OptionRow<InjectionOptions[K]> };

const setting =
  <D extends SettingDefinition>(definition: D) =>
  (r: SettingReader) =>
    r.value(definition);
const none = (): null => null;
const quantity = (resource: 'cpu' | 'memory') => parseResourceQuantity(resource);
/** The upstream as written (trimmed): the sidecar parses it again, and a pod's text must round-trip. */
const upstreamText = (raw: string): Parsed<string> => {
  const parsed = parseUpstreamUrl(raw);
  return parsed.ok ? { ok: true, value: raw.trim() } : parsed;
};

export const OPTIONS: OptionTable = {
  image: {
    setting: READ.image,
    fromSettings: (r) => r.value(READ.image) ?? `${IMAGE_REPOSITORY}:${VERSION}`,
    description: 'the sidecar image',
  },
  minimumVersion: {
    setting: READ.sidecarMinVersion,
    fromSettings: (r) => r.value(READ.sidecarMinVersion) ?? VERSION,
    description: 'the oldest sidecar version a pod may carry',
  },
  imagePullPolicy: {
    setting: READ.imagePullPolicy,
    fromSettings: setting(READ.imagePullPolicy),
    description: 'when the kubelet pulls the sidecar image',
  },
  keystoreSecret: {
    setting: READ.keystoreSecret,
    annotation: 'keystore-secret',
    parse: parseObjectName,
    fromSettings: (r) => r.value(READ.keystoreSecret) ?? null,
    description: "the Secret holding the key store, in the pod's namespace",
  },
  keystoreKey: {
    setting: READ.keystoreSecretKey,
    fromSettings: setting(READ.keystoreSecretKey),
    description: 'the key of that Secret holding the key store file',
  },
  keystoreLayout: {
    setting: READ.keystoreLayout,
    fromSettings: setting(READ.keystoreLayout),
    description: "one key store file in the Secret, or one file per profile (only the pod's profiles mounted)",
  },
  profile: {
    setting: READ.profile,
    annotation: 'profile',
    parse: parseProfileName,
    fromSettings: setting(READ.profile),
    description: 'the key store profile the sidecar signs with',
  },
  upstreamUrl: {
    setting: READ.upstreamUrl,
    annotation: 'upstream-url',
    parse: upstreamText,
    fromSettings: (r) => (r.value(READ.upstreamUrl) === undefined ? null : r.raw(READ.upstreamUrl)!.trim()),
    description: 'the gateway; none: each key store profile names its own',
  },
  signatureVersion: {
    setting: READ.signatureVersion,
    annotation: 'signature-version',
    parse: parseOneOf(SIGNATURE_VERSIONS),
    // Given to the sidecar only when set, so that the sidecar's own default applies otherwise.
    fromSettings: (r) => (r.isSet(READ.signatureVersion) ? r.value(READ.signatureVersion) : null),
    description: 'the signature scheme',
  },
  mode: {
    setting: READ.sidecarMode,
    annotation: 'mode',
    parse: parseOneOf(INJECTION_MODES),
    fromSettings: setting(READ.sidecarMode),
    description: 'native (an init container with restartPolicy Always, Kubernetes 1.29+) or classic',
  },
  sidecarUser: {
    setting: READ.sidecarUser,
    annotation: 'sidecar-user',
    parse: parseSidecarUser,
    fromSettings: setting(READ.sidecarUser),
    description: "the sidecar's user id, or platform to leave it (and the group) to the platform",
  },
  cpuRequest: {
    setting: READ.sidecarCpuRequest,
    annotation: 'cpu-request',
    parse: quantity('cpu'),
    fromSettings: setting(READ.sidecarCpuRequest),
    description: "the sidecar's CPU request",
  },
  memoryRequest: {
    setting: READ.sidecarMemoryRequest,
    annotation: 'memory-request',
    parse: quantity('memory'),
    fromSettings: setting(READ.sidecarMemoryRequest),
    description: "the sidecar's memory request",
  },
  cpuLimit: {
    setting: READ.sidecarCpuLimit,
    annotation: 'cpu-limit',
    parse: quantity('cpu'),
    fromSettings: setting(READ.sidecarCpuLimit),
    description: "the sidecar's CPU limit",
  },
  memoryLimit: {
    setting: READ.sidecarMemoryLimit,
    annotation: 'memory-limit',
    parse: quantity('memory'),
    fromSettings: setting(READ.sidecarMemoryLimit),
    description: "the sidecar's memory limit, at least what its heap cap and runtime need",
  },
  signingPort: {
    annotation: 'listen-port',
    parse: parseInteger(1, 65535),
    fromSettings: () => READ.listen.default.port,
    description: 'the signing port on 127.0.0.1; a port the pod uses is refused rather than moved',
  },
  adminPort: {
    fromSettings: () => READ.adminListen.default.port,
    description: 'the admin port (probes and metrics); moved when the pod uses it',
  },
  envConfigMap: {
    annotation: 'env-config-map',
    parse: parseObjectName,
    fromSettings: none,
    description:
      "a ConfigMap in the pod's namespace whose entries are more SFD_* settings of the sidecar (with " +
      '`env-secret` also named, all but the secret ones)',
  },
  envSecret: {
    annotation: 'env-secret',
    parse: parseObjectName,
    fromSettings: none,
    description:
      "a Secret in the pod's namespace whose entries are more SFD_* settings (with `env-config-map` also " +
      'named, only the secret ones: the egress proxy URL and the notification token)',
  },
  allowedProfiles: {
    annotation: 'allowed-profiles',
    parse: parseProfileList,
    fromSettings: () => [],
    description: `profiles a caller may pick per request (${READ.allowedProfiles.env}), comma-separated`,
  },
  profileHeader: {
    annotation: 'profile-header',
    parse: parseHeaderName,
    fromSettings: none,
    description: `the request header a caller picks one of those profiles by (${READ.profileHeader.env})`,
  },
  operations: {
    annotation: 'operations',
    parse: (raw) => {
      const parsed = parseOperationItems(raw);
      return parsed.ok ? { ok: true, value: parsed.items } : parsed;
    },
    fromSettings: none,
    description:
      'the operations the pod signs, among those its entitlement grants (getCustomer, GET|HEAD /path/*, ...), ' +
      `comma-separated (${READ.operations.env})`,
  },
};

/** The full annotation name of an option, when a pod may set it. */
export const annotationOf = (key: keyof InjectionOptions): string | undefined => {
  const name = OPTIONS[key].annotation;
  return name === undefined ? undefined : `${PREFIX}${name}`;
};

/** The injection's defaults from the settings: the same for `inject` and `injector`. */
export function readInjectionOptions(r: SettingReader): InjectionOptions {
  const entries = Object.entries(OPTIONS).map(([key, row]) => [key, (row as OptionRow<unknown>).fromSettings(r)]);
  return Object.freeze(Object.fromEntries(entries) as unknown as InjectionOptions);
}

/**
 * The pod's options: each default overridden by the pod's annotation when it has one; every annotation
 * that cannot be read is a problem naming it (and the default stands in for it meanwhile).
 */
export function overrideByAnnotations(
  defaults: InjectionOptions,
  annotations: Readonly<Record<string, string>>,
): { options: PodOptions; problems: string[] } {
  const problems: string[] = [];
  const values: Record<string, unknown> = { ...defaults };
  for (const [key, row] of Object.entries(OPTIONS) as [keyof InjectionOptions, OptionRow<unknown>][]) {
    const name = annotationOf(key);
    const raw = name === undefined ? undefined : annotations[name];
    if (raw === undefined || row.parse === undefined) continue;
    const parsed = row.parse(raw);
    if (parsed.ok) values[key] = parsed.value;
    else problems.push(`annotation ${name}: must be ${parsed.allowed} (got ${quoteValue(parsed.shown ?? raw)})`);
  }
  const signingPortFromAnnotation = annotations[annotationOf('signingPort')!] !== undefined;
  return { options: { ...(values as unknown as InjectionOptions), signingPortFromAnnotation }, problems };
}

/** Every profile a pod's sidecar may sign with: its own, then those a caller may pick, each once. */
export function podProfiles(options: Pick<InjectionOptions, 'profile' | 'allowedProfiles'>): string[] {
  return [...new Set([options.profile, ...options.allowedProfiles])];
}
