// Turns setting values (already merged from flags, environment and the dotenv file) into one
// validated, frozen Config for `serve`. Every problem is collected and reported at once.
import type { ProfileNarrowing } from '../operations/operations-setting.js';
import { FILE_LIMITS } from '../files/regular-file.js';
import type { AccessKey, SigningOptions } from '../signing/types.js';
import { caBundleProblem } from './ca-bundle.js';
import { readConfigParts, type ConfigParts, type ConfiguredListener } from './config-part.js';
import { readEgressProxy, type EgressProxy } from './egress-proxy.js';
import { readLimits, type Limits } from './limits-config.js';
import { formatListen, type ListenAddress, type UpstreamTarget } from './parsers.js';
import { SettingReader, type FileReader, type SettingValues } from './setting-reader.js';
import type { SettingSource } from './setting-sources.js';
import { SETTINGS, type LogLevel, type RequestLogMode } from './settings.js';

export type { SettingValues } from './setting-reader.js';

/** Where keys come from: the built-in demo key, one configured key, or a rotated key store. */
export type KeySource =
  | { readonly kind: 'demo' }
  | { readonly kind: 'single'; readonly key: AccessKey }
  | {
      readonly kind: 'keystore';
      readonly path: string;
      readonly reloadIntervalMs: number;
      readonly debounceMs: number;
    };

export interface Config {
  /** No upstream, key or key store configured outside production: run in front of the built-in emulator. */
  readonly demo: boolean;
  /** SFD_UPSTREAM_URL; null in the demo and when key store profiles name their own upstreams. */
  readonly upstream: UpstreamTarget | null;
  readonly listen: ListenAddress;
  readonly adminListen: ListenAddress;
  readonly keySource: KeySource;
  readonly profile: string;
  readonly profileHeader: string | null;
  readonly allowedProfiles: readonly string[];
  /** SFD_OPERATIONS: each profile's narrowing of what the key store lets it sign; null when unset. */
  readonly operations: ProfileNarrowing | null;
  readonly keyExpiryWarningDays: number;
  readonly signing: SigningOptions;
  readonly maxBodyBytes: number;
  readonly upstreamTimeoutMs: number;
  /** PEM text trusted in addition to the system roots. */
  readonly upstreamCa: string | null;
  /** SFD_UPSTREAM_PROXY (or HTTPS_PROXY) and its no-proxy list; null when upstreams are reached directly. */
  readonly egressProxy: EgressProxy | null;
  /** A conventional HTTPS_PROXY the sidecar cannot use, set aside: why (logged at start; doctor warns). */
  readonly egressProxyIgnored: string | null;
  /** After SIGTERM, time spent serving as usual before the drain starts (0: drain at once). */
  readonly shutdownDelayMs: number;
  readonly shutdownTimeoutMs: number;
  readonly logLevel: LogLevel;
  readonly requestLog: RequestLogMode;
  readonly limits: Limits;
  /** Values that work but are likely mistakes (logged at start, shown by doctor); never a secret. */
  readonly warnings: readonly string[];
}

export interface LoadConfigDeps extends FileReader {
  /** NODE_ENV=production: the demo is never an option. */
  readonly production: boolean;
  /** Where each value came from, for the messages. */
  readonly sources?: Readonly<Record<string, SettingSource>>;
}

/** The loader's dependencies and the features' parts the command reads with the core (none by default). */
export type LoadConfigOptions<P extends object> = LoadConfigDeps & { readonly parts?: ConfigParts<P> };

export function loadConfig<P extends object = Record<never, never>>(
  values: SettingValues,
  deps: LoadConfigOptions<P>,
): Config & Readonly<P> {
  const r = new SettingReader(values, deps, deps.sources);
  // Every setting is read before the problems are reported, so that all of them are.
  const settings = {
    profile: r.value(SETTINGS.profile),
    keyExpiryWarningDays: r.value(SETTINGS.keyExpiryWarningDays),
    signing: r.signingOptions(),
    upstreamTimeoutMs: r.value(SETTINGS.upstreamTimeoutMs),
    shutdownDelayMs: r.value(SETTINGS.shutdownDelayMs),
    shutdownTimeoutMs: r.value(SETTINGS.shutdownTimeoutMs),
    logLevel: r.value(SETTINGS.logLevel),
    requestLog: r.value(SETTINGS.requestLog),
  };
  const reloadIntervalMs = r.value(SETTINGS.keystoreReloadIntervalMs);
  const debounceMs = r.value(SETTINGS.keystoreDebounceMs);
  const upstream = r.value(SETTINGS.upstreamUrl);
  const listen = r.value(SETTINGS.listen);
  const adminListen = r.value(SETTINGS.adminListen);
  const maxBodyBytes = r.value(SETTINGS.maxBodyBytes);
  const upstreamCa = r.file(SETTINGS.upstreamCaFile, FILE_LIMITS.caBundle);
  const caProblem = upstreamCa === null ? null : caBundleProblem(upstreamCa);
  if (caProblem) r.problems.push(`${SETTINGS.upstreamCaFile.env}: ${caProblem}`);
  const egress = readEgressProxy(r);
  const profileHeader = r.value(SETTINGS.profileHeader) ?? null;
  const allowedProfiles = r.value(SETTINGS.allowedProfiles) ?? [];
  // Read before the problems are judged: a limit that cannot be read must stop the start, never lift.
  const operations = r.value(SETTINGS.operations) ?? null;
  profileChoiceProblems(r, profileHeader, allowedProfiles);
  const limits = readLimits(r, maxBodyBytes);
  const parts = readConfigParts(r, deps.parts ?? ({} as ConfigParts<P>), { limits });
  sameAddressProblems(r, [[SETTINGS.listen, listen], [SETTINGS.adminListen, adminListen], ...parts.listeners]);

  const keystorePath = r.raw(SETTINGS.keystoreFile)?.trim();
  const demo = !deps.production && !r.isSet(SETTINGS.upstreamUrl) && !r.keyConfigured() && keystorePath === undefined;
  const keySource = readKeySource(r, deps.production, { keystorePath, demo, reloadIntervalMs, debounceMs });
  r.assertValid();

  return Object.freeze({
    ...parts.values,
    limits,
    demo,
    upstream: upstream ?? null,
    listen,
    adminListen,
    keySource,
    ...settings,
    profileHeader,
    allowedProfiles: Object.freeze(allowedProfiles),
    operations,
    maxBodyBytes,
    upstreamCa,
    egressProxy: egress.proxy,
    egressProxyIgnored: egress.ignored,
    warnings: Object.freeze([...r.warnings]),
  });
}

/** A caller's choice of profile by header needs the profiles it may choose, and those need the header. */
function profileChoiceProblems(
  r: SettingReader,
  profileHeader: string | null,
  allowedProfiles: readonly string[],
): void {
  if (profileHeader !== null && allowedProfiles.length === 0) {
    r.problems.push(
      `${SETTINGS.allowedProfiles.env}: required with ${SETTINGS.profileHeader.env}, the profiles a caller may pick`,
    );
  }
  if (profileHeader === null && r.isSet(SETTINGS.allowedProfiles)) {
    r.problems.push(
      `${SETTINGS.allowedProfiles.env}: only means something with ${SETTINGS.profileHeader.env}; set both or neither`,
    );
  }
}

/** Where the keys come from: a key store file, the one key of the settings, or the demo's. */
function readKeySource(
  r: SettingReader,
  production: boolean,
  {
    keystorePath,
    demo,
    reloadIntervalMs,
    debounceMs,
  }: { keystorePath: string | undefined; demo: boolean; reloadIntervalMs: number; debounceMs: number },
): KeySource {
  if (keystorePath !== undefined) {
    if (r.keyConfigured()) {
      r.problems.push(
        `${SETTINGS.keystoreFile.env} and ` +
          `${SETTINGS.accessKeyId.env}/${SETTINGS.accessKeySecret.env}[_FILE]: set one kind of key ` +
          `configuration, not both`,
      );
    }
    return { kind: 'keystore', path: keystorePath, reloadIntervalMs, debounceMs };
  } else if (!demo) {
    if (!r.isSet(SETTINGS.upstreamUrl)) {
      const why = production
        ? 'NODE_ENV=production never falls back to the demo'
        : 'the demo runs only when no key is configured';
      r.problems.push(
        `${SETTINGS.upstreamUrl.env}: required (${why}); an http:// or https:// base URL like ` +
          `https://host[:port][/prefix]`,
      );
    }
    const key = r.accessKey();
    if (key) return { kind: 'single', key };
  }
  return { kind: 'demo' };
}

/**
 * Two listeners of one process on the same address: the second would fail to bind with "address in
 * use", which reads as another process; it is this configuration, and both settings are named.
 */
function sameAddressProblems(r: SettingReader, listeners: readonly ConfiguredListener[]): void {
  for (let i = 0; i < listeners.length; i += 1) {
    for (let j = i + 1; j < listeners.length; j += 1) {
      const [first, a] = listeners[i]!;
      const [second, b] = listeners[j]!;
      if (a.port === 0 || a.port !== b.port) continue;
      // Every address ('' or 0.0.0.0 or ::) overlaps any address on the same port.
      const wildcard = (host: string): boolean => host === '' || host === '0.0.0.0' || host === '::';
      if (a.host === b.host || wildcard(a.host) || wildcard(b.host)) {
        r.problems.push(
          `${first.env} and ${second.env}: both listen on port ${a.port} ` +
            `(${formatListen(a)} and ${formatListen(b)}); give each listener its own port`,
        );
      }
    }
  }
}
