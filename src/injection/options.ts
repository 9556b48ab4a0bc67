// What the sidecar injected into a pod is made of: the defaults (flags and SFD_* settings of `inject`
// and `injector`), each overridden by the pod's own annotation when it has one.
import { parseInteger, parseObjectName, parseOneOf, parseUpstreamUrl, type Parsed } from '../config/parsers.js';
import { parseHeaderName, parseProfileList, parseProfileName } from '../config/profile-parsers.js';
import {
  INJECTION_MODES,
  parseSidecarUser,
  type ImagePullPolicy,
  type InjectionMode,
  type KeystoreLayout,
  type SidecarUser,
} from '../config/settings.js';
import { SIGNATURE_VERSIONS, type SignatureVersion } from '../signing/types.js';
import { ANNOTATIONS } from './annotations.js';
import { parseResourceQuantity } from '../config/quantity-parsers.js';
import { formatQuantity, parseQuantity } from '../config/quantity.js';
import { SETTINGS } from '../config/settings.js';

export { INJECTION_MODES, type InjectionMode, type SidecarUser } from '../config/settings.js';

export interface InjectionOptions {
  /** The sidecar image (SFD_IMAGE). */
  readonly image: string;
  readonly imagePullPolicy: ImagePullPolicy;
  /** The Secret holding the key store (SFD_KEYSTORE_SECRET); null when none is set anywhere. */
  readonly keystoreSecret: string | null;
  /** The key of that Secret holding the key store file. */
  readonly keystoreKey: string;
  /** One key store file in the Secret, or one file per profile (only the pod's mounted). */
  readonly keystoreLayout: KeystoreLayout;
  readonly profile: string;
  /** SFD_UPSTREAM_URL; null to leave it to the key store's profiles. */
  readonly upstreamUrl: string | null;
  /** SFD_SIGNATURE_VERSION; null for the sidecar's default. */
  readonly signatureVersion: SignatureVersion | null;
  readonly mode: InjectionMode;
  /** The sidecar's user id (SFD_SIDECAR_USER), or platform to leave it to the platform. */
  readonly sidecarUser: SidecarUser;
  /** The sidecar's requests and limits, as quantities; an empty CPU limit is none. */
  readonly resources: SidecarResources;
  readonly signingPort: number;
  readonly adminPort: number;
}

export interface SidecarResources {
  readonly cpuRequest: string;
  readonly memoryRequest: string;
  readonly cpuLimit: string;
  readonly memoryLimit: string;
}

/** The least memory limit the sidecar runs in: the image's heap cap (128 MiB) and the runtime's 64 MiB. */
export const MIN_MEMORY_LIMIT_BYTES = 192 * 2 ** 20;

/** The options for one pod and whether its signing port was chosen by its annotation. */
export interface PodOptions extends InjectionOptions {
  readonly signingPortFromAnnotation: boolean;
  /** More settings for the sidecar, from a ConfigMap and a Secret the pod names. */
  readonly envConfigMap: string | null;
  readonly envSecret: string | null;
  /** Profiles a caller may pick per request, and the header it picks them by; none when empty. */
  readonly allowedProfiles: readonly string[];
  readonly profileHeader: string | null;
}

const parsePort = parseInteger(1, 65535);

/** Every profile a pod's sidecar may sign with: its own, then those a caller may pick, each once. */
export function podProfiles(options: Pick<PodOptions, 'profile' | 'allowedProfiles'>): string[] {
  return [...new Set([options.profile, ...options.allowedProfiles])];
}

/** The pod's options, or every problem with its annotations (each naming the annotation). */
export function optionsForPod(
  defaults: InjectionOptions,
  annotations: Readonly<Record<string, string>>,
): { ok: true; options: PodOptions } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const read = <T>(name: string, parse: (raw: string) => Parsed<T>, fallback: T): T => {
    const raw = annotations[name];
    if (raw === undefined) return fallback;
    const parsed = parse(raw);
    if (parsed.ok) return parsed.value;
    problems.push(`annotation ${name}: must be ${parsed.allowed} (got ${JSON.stringify(raw)})`);
    return fallback;
  };
  const upstream = read(
    ANNOTATIONS.upstreamUrl,
    (raw) => {
      const parsed = parseUpstreamUrl(raw);
      return parsed.ok ? { ok: true, value: raw.trim() } : parsed;
    },
    defaults.upstreamUrl,
  );
  const options: PodOptions = {
    ...defaults,
    keystoreSecret: read(ANNOTATIONS.keystoreSecret, parseObjectName, defaults.keystoreSecret),
    profile: read(ANNOTATIONS.profile, parseProfileName, defaults.profile),
    upstreamUrl: upstream,
    signatureVersion: read(ANNOTATIONS.signatureVersion, parseOneOf(SIGNATURE_VERSIONS), defaults.signatureVersion),
    mode: read(ANNOTATIONS.mode, parseOneOf(INJECTION_MODES), defaults.mode),
    sidecarUser: read(ANNOTATIONS.sidecarUser, parseSidecarUser, defaults.sidecarUser),
    resources: {
      cpuRequest: read(ANNOTATIONS.cpuRequest, parseResourceQuantity('cpu'), defaults.resources.cpuRequest),
      memoryRequest: read(ANNOTATIONS.memoryRequest, parseResourceQuantity('memory'), defaults.resources.memoryRequest),
      cpuLimit: read(ANNOTATIONS.cpuLimit, parseResourceQuantity('cpu'), defaults.resources.cpuLimit),
      memoryLimit: read(ANNOTATIONS.memoryLimit, parseResourceQuantity('memory'), defaults.resources.memoryLimit),
    },
    signingPort: read(ANNOTATIONS.listenPort, parsePort, defaults.signingPort),
    signingPortFromAnnotation: annotations[ANNOTATIONS.listenPort] !== undefined,
    envConfigMap: read(ANNOTATIONS.envConfigMap, parseObjectName, null),
    envSecret: read(ANNOTATIONS.envSecret, parseObjectName, null),
    allowedProfiles: read(ANNOTATIONS.allowedProfiles, parseProfileList, []),
    profileHeader: read(ANNOTATIONS.profileHeader, parseHeaderName, null),
  };
  if (options.allowedProfiles.length > 0 !== (options.profileHeader !== null))
    problems.push(
      `annotations ${ANNOTATIONS.allowedProfiles} and ${ANNOTATIONS.profileHeader}: give both (the profiles a ` +
        'caller may pick, and the header it picks them by) or neither',
    );
  problems.push(...resourceProblems(options.resources, annotations));
  if (options.keystoreSecret === null) {
    problems.push(
      `no key store Secret: set ${ANNOTATIONS.keystoreSecret} on the pod, or --keystore-secret ` +
        `(${SETTINGS.keystoreSecret.env}) for all`,
    );
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, options };
}

/** A memory limit the sidecar cannot run in, or a request above its limit, named with both numbers. */
function resourceProblems(resources: SidecarResources, annotations: Readonly<Record<string, string>>): string[] {
  const from = (annotation: string, setting: string): string =>
    annotations[annotation] === undefined ? setting : `annotation ${annotation}`;
  const problems: string[] = [];
  const memoryLimit = parseQuantity(resources.memoryLimit) ?? 0;
  if (memoryLimit < MIN_MEMORY_LIMIT_BYTES)
    problems.push(
      `${from(ANNOTATIONS.memoryLimit, SETTINGS.sidecarMemoryLimit.env)}: ${resources.memoryLimit} is below the ` +
        `${formatQuantity('memory', MIN_MEMORY_LIMIT_BYTES)} the sidecar's heap cap and runtime need`,
    );
  const pairs = [
    ['memory', resources.memoryRequest, resources.memoryLimit, ANNOTATIONS.memoryRequest],
    ['cpu', resources.cpuRequest, resources.cpuLimit, ANNOTATIONS.cpuRequest],
  ] as const;
  for (const [resource, request, limit, annotation] of pairs) {
    if (limit === '') continue;
    if ((parseQuantity(request) ?? 0) > (parseQuantity(limit) ?? Infinity))
      problems.push(
        `${from(annotation, `SFD_SIDECAR_${resource.toUpperCase()}_REQUEST`)}: the ${resource} request ${request} ` +
          `is above the limit ${limit}`,
      );
  }
  return problems;
}
