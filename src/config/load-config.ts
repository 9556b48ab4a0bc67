// Turns setting values (already merged from flags, environment and the dotenv file) into one
// validated, frozen Config for `serve`. Every problem is collected and reported at once.
import { FILE_LIMITS } from '../files/regular-file.js';
import { caBundleProblem } from './ca-bundle.js';
import type { AccessKey, SigningOptions } from '../signing/types.js';
import { parseInteger, parseListen, parseOneOf, parseUpstreamUrl, type ListenAddress, type UpstreamTarget } from './parsers.js';
import { parseHeaderName, parseProfileList, parseProfileName } from './profile-parsers.js';
import { readNotifyConfig, smallestDeadLetterCap } from './notify-config.js';
import { readLimits, type Limits } from './limits-config.js';
import { readEgressProxy, type EgressProxy } from './egress-proxy.js';
import { SettingReader, type FileReader, type SettingValues } from './setting-reader.js';
import { SETTINGS } from './settings.js';

export type { SettingValues } from './setting-reader.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** SFD_REQUEST_LOG: which requests get their line (issue #4: one line per request is the default). */
export const REQUEST_LOG_MODES = ['all', 'failed', 'off'] as const;
export type RequestLogMode = (typeof REQUEST_LOG_MODES)[number];

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

export interface NotifyConfig {
  readonly listen: ListenAddress;
  readonly path: string;
  readonly forwardUrl: URL;
  readonly token: string | null;
  readonly allowedCidrs: string | null;
  readonly requireHeader: boolean;
  readonly maxBodyBytes: number;
  /** SFD_NOTIFY_MAX_INFLIGHT: notifications handled at once. */
  readonly maxInflight: number;
  /** SFD_NOTIFY_MAX_CONNECTIONS: connections the relay holds. */
  readonly maxConnections: number;
  readonly timeoutMs: number;
  readonly deadLetterDir: string | null;
  /** SFD_NOTIFY_DEAD_LETTER_MAX_BYTES: the dead-letter file's cap. */
  readonly deadLetterMaxBytes: number;
}

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
  /** The notification relay; null when SFD_NOTIFY_LISTEN is unset. */
  readonly notify: NotifyConfig | null;
  readonly limits: Limits;
}

export interface LoadConfigDeps extends FileReader {
  /** NODE_ENV=production: the demo is never an option. */
  readonly production: boolean;
}

export function loadConfig(values: SettingValues, deps: LoadConfigDeps): Config {
  const r = new SettingReader(values, deps);
  const upstream = r.read('upstreamUrl', parseUpstreamUrl);
  const listen = r.read('listen', parseListen, '127.0.0.1:8080');
  const adminListen = r.read('adminListen', parseListen, ':9090');
  const signing = r.signingOptions();
  const maxBodyBytes = r.read('maxBodyBytes', parseInteger(1, 1024 * 1024 * 1024), '1048576');
  const upstreamTimeoutMs = r.read('upstreamTimeoutMs', parseInteger(1, 3_600_000), '30000');
  const shutdownDelayMs = r.read('shutdownDelayMs', parseInteger(0, 3_600_000), '0');
  const shutdownTimeoutMs = r.read('shutdownTimeoutMs', parseInteger(0, 3_600_000), '10000');
  const logLevel = r.read('logLevel', parseOneOf(LOG_LEVELS), 'info');
  const requestLog = r.read('requestLog', parseOneOf(REQUEST_LOG_MODES), 'all');
  const upstreamCa = r.file('upstreamCaFile', FILE_LIMITS.caBundle);
  const caProblem = upstreamCa === null ? null : caBundleProblem(upstreamCa);
  if (caProblem) r.problems.push(`${SETTINGS.upstreamCaFile.env}: ${caProblem}`);
  const egress = readEgressProxy(r);
  const profile = r.read('profile', parseProfileName, 'default');
  const profileHeader = r.read('profileHeader', parseHeaderName) ?? null;
  const allowedProfiles = r.read('allowedProfiles', parseProfileList) ?? [];
  const keyExpiryWarningDays = r.read('keyExpiryWarningDays', parseInteger(0, 3650), '7');
  const reloadIntervalMs = r.read('keystoreReloadIntervalMs', parseInteger(100, 86_400_000), '60000');
  const debounceMs = r.read('keystoreDebounceMs', parseInteger(0, 60_000), '200');
  if (profileHeader !== null && allowedProfiles.length === 0) {
    r.problems.push(`${SETTINGS.allowedProfiles.env}: required with ${SETTINGS.profileHeader.env}, the profiles a caller may pick`);
  }
  if (profileHeader === null && r.raw('allowedProfiles') !== undefined) {
    r.problems.push(`${SETTINGS.allowedProfiles.env}: only means something with ${SETTINGS.profileHeader.env}; set both or neither`);
  }

  const keystorePath = r.raw('keystoreFile');
  const demo = !deps.production && r.raw('upstreamUrl') === undefined && !r.keyConfigured() && keystorePath === undefined;
  let keySource: KeySource = { kind: 'demo' };
  if (keystorePath !== undefined) {
    if (r.keyConfigured()) {
      r.problems.push(`${SETTINGS.keystoreFile.env} and ${SETTINGS.accessKeyId.env}/${SETTINGS.accessKeySecret.env}[_FILE]: set one kind of key configuration, not both`);
    }
    keySource = { kind: 'keystore', path: keystorePath.trim(), reloadIntervalMs: reloadIntervalMs!, debounceMs: debounceMs! };
  } else if (!demo) {
    if (r.raw('upstreamUrl') === undefined) {
      const why = deps.production ? 'NODE_ENV=production never falls back to the demo' : 'the demo runs only when no key is configured';
      r.problems.push(`${SETTINGS.upstreamUrl.env}: required (${why}); an http:// or https:// base URL like https://host[:port][/prefix]`);
    }
    const key = r.accessKey();
    if (key) keySource = { kind: 'single', key };
  }
  const notify = readNotifyConfig(r);
  const limits = readLimits(r, maxBodyBytes ?? 0);
  if (limits.clientHeadersTimeoutMs > limits.clientRequestTimeoutMs) {
    r.problems.push('SFD_CLIENT_HEADERS_TIMEOUT_MS: must not be longer than SFD_CLIENT_REQUEST_TIMEOUT_MS');
  }
  if (maxBodyBytes !== undefined && limits.maxBufferedBodyBytes < maxBodyBytes) {
    r.problems.push(
      `${SETTINGS.maxBufferedBodyBytes.env}: must be at least ${SETTINGS.maxBodyBytes.env} (${maxBodyBytes}), or the largest body accepted could never be held; leave it unset to follow ${SETTINGS.maxBodyBytes.env}`,
    );
  }
  if (notify?.deadLetterDir) {
    const smallestCap = smallestDeadLetterCap(notify.maxBodyBytes, limits.maxHeaderBytes);
    if (notify.deadLetterMaxBytes < smallestCap) {
      r.problems.push(
        `${SETTINGS.notifyDeadLetterMaxBytes.env}: must be at least ${smallestCap}, so that the dead-letter file can take the largest notification accepted (6 times ${SETTINGS.notifyMaxBodyBytes.env} plus ${SETTINGS.maxHeaderBytes.env}, as JSON-escaped, plus 4096)`,
      );
    }
  }
  r.assertValid();

  return Object.freeze({
    notify,
    limits,
    demo,
    upstream: upstream ?? null,
    listen: listen!,
    adminListen: adminListen!,
    keySource,
    profile: profile!,
    profileHeader,
    allowedProfiles: Object.freeze(allowedProfiles),
    keyExpiryWarningDays: keyExpiryWarningDays!,
    signing,
    maxBodyBytes: maxBodyBytes!,
    upstreamTimeoutMs: upstreamTimeoutMs!,
    upstreamCa,
    egressProxy: egress.proxy,
    egressProxyIgnored: egress.ignored,
    shutdownDelayMs: shutdownDelayMs!,
    shutdownTimeoutMs: shutdownTimeoutMs!,
    logLevel: logLevel!,
    requestLog: requestLog!,
  });
}
