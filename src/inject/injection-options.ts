// What the sidecar injected into a pod is made of: the defaults (flags and SFD_* settings of `inject`
// and `injector`), each overridden by the pod's own annotation when it has one.
import { parseInteger, parseObjectName, parseOneOf, parseUpstreamUrl, type Parsed } from '../config/parsers.js';
import { parseProfileName } from '../config/profile-parsers.js';
import { INJECTION_MODES, parseSidecarUser, type InjectionMode, type SidecarUser } from '../config/settings.js';
import { SIGNATURE_VERSIONS, type SignatureVersion } from '../signing/types.js';
import { ANNOTATIONS } from './annotations.js';

export { INJECTION_MODES, type InjectionMode, type SidecarUser } from '../config/settings.js';

export interface InjectionOptions {
  /** The sidecar image (SFD_IMAGE). */
  readonly image: string;
  /** The Secret holding the key store (SFD_KEYSTORE_SECRET); null when none is set anywhere. */
  readonly keystoreSecret: string | null;
  /** The key of that Secret holding the key store file. */
  readonly keystoreKey: string;
  readonly profile: string;
  /** SFD_UPSTREAM_URL; null to leave it to the key store's profiles. */
  readonly upstreamUrl: string | null;
  /** SFD_SIGNATURE_VERSION; null for the sidecar's default. */
  readonly signatureVersion: SignatureVersion | null;
  readonly mode: InjectionMode;
  /** The sidecar's user id (SFD_SIDECAR_USER), or platform to leave it to the platform. */
  readonly sidecarUser: SidecarUser;
  readonly signingPort: number;
  readonly adminPort: number;
}

/** The options for one pod and whether its signing port was chosen by its annotation. */
export interface PodOptions extends InjectionOptions {
  readonly signingPortFromAnnotation: boolean;
  /** More settings for the sidecar, from a ConfigMap and a Secret the pod names. */
  readonly envConfigMap: string | null;
  readonly envSecret: string | null;
}

const parsePort = parseInteger(1, 65535);

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
    signingPort: read(ANNOTATIONS.listenPort, parsePort, defaults.signingPort),
    signingPortFromAnnotation: annotations[ANNOTATIONS.listenPort] !== undefined,
    envConfigMap: read(ANNOTATIONS.envConfigMap, parseObjectName, null),
    envSecret: read(ANNOTATIONS.envSecret, parseObjectName, null),
  };
  if (options.keystoreSecret === null) {
    problems.push(
      `no key store Secret: set ${ANNOTATIONS.keystoreSecret} on the pod, or --keystore-secret ` +
        `(SFD_KEYSTORE_SECRET) for all`,
    );
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, options };
}
