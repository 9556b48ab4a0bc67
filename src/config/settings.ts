// Every setting, once: its environment variable (the flag of SFD_X_Y is --x-y), what it means, how its
// text is read and what it may be, its default, whether it is a secret, and the commands that read it.
// The readers, --help, docs/configuration.md and the chart's values schema all derive from this table.
import {
  OPERATIONS_SETTING_ALLOWED,
  parseOperationsSetting,
  type ProfileNarrowing,
} from '../operations/operations-setting.js';
import type { SignatureVersion, QueryPlacement, V2StringShape } from '../signing/types.js';
import { QUERY_PLACEMENTS, SIGNATURE_VERSIONS, V2_STRING_SHAPES } from '../signing/types.js';
import { parseCidrs, parseForwardUrl, parseNotifyPath, parseNotifyToken } from './notify-parsers.js';
import {
  formatListen,
  fail,
  ok,
  parseAccessKeyId,
  parseInteger,
  parseListen,
  parseMethods,
  parseObjectName,
  parseOneOf,
  parseServiceName,
  parseUpstreamUrl,
  type ListenAddress,
  type Parsed,
  type UpstreamTarget,
} from './parsers.js';
import { parseHeaderName, parseProfileList, parseProfileName } from './profile-parsers.js';
import { IMAGE_REPOSITORY } from '../version.js';
import { parseResourceQuantity } from './quantity-parsers.js';
import { parseQuantity } from './quantity.js';

export const KEYSTORE_LAYOUTS = ['file', 'per-profile'] as const;
export type KeystoreLayout = (typeof KEYSTORE_LAYOUTS)[number];

/**
 * The commands of a setting every command reads, the dispatcher reading it before any command runs. A
 * symbol rather than a word, so that a list method called on it fails to compile instead of answering.
 */
export const EVERY_COMMAND: unique symbol = Symbol('every command');

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** Which requests get their log line. */
export const REQUEST_LOG_MODES = ['all', 'failed', 'off'] as const;
export type RequestLogMode = (typeof REQUEST_LOG_MODES)[number];
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

export interface SettingDefinition<T = unknown> {
  readonly env: `SFD_${string}`;
  readonly description: string;
  /** Reads the setting's text; on failure, says what is allowed. */
  readonly parse: (raw: string) => Parsed<T>;
  /** What a value may be, in words (help and docs). */
  readonly allowed: string;
  /** The value when the setting is not given; absent when there is none. */
  readonly default?: T;
  /** The default as shown, when it is not the value itself (another variable, a computed value). */
  readonly defaultText?: string;
  /** A secret: never repeated in errors, logs or output. */
  readonly secret?: boolean;
  /** The commands that read it, by their names in the command table, or every command. */
  readonly commands: readonly string[] | typeof EVERY_COMMAND;
}

/** Whether the command of that name reads the setting. */
export const isReadBy = (setting: Pick<SettingDefinition, 'commands'>, command: string): boolean =>
  setting.commands === EVERY_COMMAND || setting.commands.includes(command);

const SERVE = ['serve', 'doctor'] as const;
const SIGNING_FORM = ['serve', 'doctor', 'sign', 'emulator'] as const;
const KEYS = ['serve', 'doctor', 'sign', 'emulator', 'keys'] as const;
const INJECT = ['inject', 'injector', 'check'] as const;
const LISTENERS = ['serve', 'doctor', 'injector'] as const;

const text = (allowed: string) => ({ parse: (raw: string): Parsed<string> => ok(raw.trim()), allowed });
const integer = (min: number, max: number) => ({
  parse: parseInteger(min, max),
  allowed: `a whole number from ${min} to ${max}`,
});
const oneOf = <T extends string>(values: readonly T[]) => ({ parse: parseOneOf(values), allowed: values.join(', ') });
/** A Kubernetes resource quantity, as text (what the pod spec takes). */
const quantity = (allowed: string, resource: 'cpu' | 'memory', mayBeEmpty = false, minBytes = 0) => ({
  parse: (raw: string): Parsed<string> => {
    const text = raw.trim();
    if (text === '' && mayBeEmpty) return ok('');
    const parsed = parseResourceQuantity(resource)(text);
    return parsed.ok && (parseQuantity(parsed.value) ?? 0) < minBytes ? { ok: false, allowed } : parsed;
  },
  allowed,
});
const listen = { parse: parseListen, allowed: 'HOST:PORT, [IPv6]:PORT, or :PORT for every address' };
const MiB = 1024 * 1024;

/** Keeps each definition's value type, so that readers get typed values. */
/**
 * The default of SFD_MAX_BUFFERED_BODY_BYTES: the signing listener's, and the injector's, which the
 * injector's memory limit in the chart leaves room for.
 */
export const BUFFERED_BODY_DEFAULTS = Object.freeze({ serve: 16 * MiB, injector: 8 * MiB });

const define = <T extends Record<string, SettingDefinition>>(table: T): T => table;

export const SETTINGS = define({
  envFile: {
    env: 'SFD_ENV_FILE',
    description: 'dotenv file read at start; real environment variables win over it',
    ...text('a file path'),
    default: '.env',
    commands: EVERY_COMMAND,
  } satisfies SettingDefinition<string>,
  upstreamUrl: {
    env: 'SFD_UPSTREAM_URL',
    description: 'base URL of the gateway; required except in the demo and when every key store profile names its own',
    parse: parseUpstreamUrl,
    allowed: 'https://host[:port][/prefix] or http://...',
    commands: [...SERVE, ...INJECT],
  } satisfies SettingDefinition<UpstreamTarget>,
  listen: {
    env: 'SFD_LISTEN',
    description: 'the signing listener; keep it on loopback: whoever reaches it signs with the key',
    ...listen,
    default: { host: '127.0.0.1', port: 8080 },
    commands: SERVE,
  } satisfies SettingDefinition<ListenAddress>,
  adminListen: {
    env: 'SFD_ADMIN_LISTEN',
    description: 'the admin listener: /healthz, /readyz, /metrics; :PORT is every address of the pod, IPv4 and IPv6',
    ...listen,
    default: { host: '', port: 9090 },
    commands: [...LISTENERS, 'wait-ready'],
  } satisfies SettingDefinition<ListenAddress>,
  accessKeyId: {
    env: 'SFD_ACCESS_KEY_ID',
    description: 'the access key id (instead of a key store)',
    parse: parseAccessKeyId,
    allowed: '1 to 128 printable characters without spaces or colons',
    commands: KEYS,
  } satisfies SettingDefinition<string>,
  accessKeySecret: {
    env: 'SFD_ACCESS_KEY_SECRET',
    description: 'the access key secret; prefer SFD_ACCESS_KEY_SECRET_FILE, which keeps it out of the environment',
    ...text('the secret'),
    secret: true,
    commands: KEYS,
  } satisfies SettingDefinition<string>,
  accessKeySecretFile: {
    env: 'SFD_ACCESS_KEY_SECRET_FILE',
    description: 'file holding the access key secret; one trailing newline is ignored',
    ...text('a file path'),
    commands: KEYS,
  } satisfies SettingDefinition<string>,
  keystoreFile: {
    env: 'SFD_KEYSTORE_FILE',
    description:
      'the key store file (JSON, or YAML when named .yaml/.yml), or a directory of such files whose profiles ' +
      'are merged, watched for rotations; instead of the single-key settings',
    ...text('a file or directory path'),
    commands: ['serve', 'doctor', 'keys'],
  } satisfies SettingDefinition<string>,
  profile: {
    env: 'SFD_PROFILE',
    description: 'the key store profile to sign with (with a single key, the name of its profile)',
    parse: parseProfileName,
    allowed: 'letters, digits, dot, dash and underscore, at most 63',
    default: 'default',
    commands: [...SERVE, 'keys', ...INJECT],
  } satisfies SettingDefinition<string>,
  profileHeader: {
    env: 'SFD_PROFILE_HEADER',
    description:
      'header a caller may use to pick a profile among SFD_ALLOWED_PROFILES; never forwarded; off when unset',
    parse: parseHeaderName,
    allowed: 'a header name the sidecar does not set itself',
    commands: SERVE,
  } satisfies SettingDefinition<string>,
  allowedProfiles: {
    env: 'SFD_ALLOWED_PROFILES',
    description: 'profiles a caller may pick with SFD_PROFILE_HEADER (required with it)',
    parse: parseProfileList,
    allowed: 'comma-separated profile names',
    commands: SERVE,
  } satisfies SettingDefinition<string[]>,
  operations: {
    env: 'SFD_OPERATIONS',
    description:
      'the operations each profile may sign, within what the key store allows: written by the injection from ' +
      'the entitlement policy and the sfd-sidecar.io/operations annotation; unset, the key store alone limits',
    parse: (raw: string) => {
      const parsed = parseOperationsSetting(raw);
      return parsed.ok ? ok(parsed.value) : fail(parsed.allowed);
    },
    allowed: OPERATIONS_SETTING_ALLOWED,
    commands: ['serve'],
  } satisfies SettingDefinition<ProfileNarrowing>,
  keystoreReloadIntervalMs: {
    env: 'SFD_KEYSTORE_RELOAD_INTERVAL_MS',
    description: 'the key store is re-read this often, as a backstop to watching its directory',
    ...integer(100, 86_400_000),
    default: 60_000,
    commands: ['serve'],
  } satisfies SettingDefinition<number>,
  keystoreDebounceMs: {
    env: 'SFD_KEYSTORE_DEBOUNCE_MS',
    description: "wait after a change in the key store's directory before reading it",
    ...integer(0, 60_000),
    default: 200,
    commands: ['serve'],
  } satisfies SettingDefinition<number>,
  keyExpiryWarningDays: {
    env: 'SFD_KEY_EXPIRY_WARNING_DAYS',
    description: 'a key this close to its notAfter is logged (warn) once a day',
    ...integer(0, 3650),
    default: 7,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  signatureVersion: {
    env: 'SFD_SIGNATURE_VERSION',
    description: 'the signature scheme (docs/signing.md)',
    ...oneOf(SIGNATURE_VERSIONS),
    default: '2',
    commands: [...SIGNING_FORM, ...INJECT],
  } satisfies SettingDefinition<SignatureVersion>,
  v2StringShape: {
    env: 'SFD_V2_STRING_SHAPE',
    description: 'how scheme 2 lays out its string to sign (docs/signing.md)',
    ...oneOf(V2_STRING_SHAPES),
    default: 'spec',
    commands: SIGNING_FORM,
  } satisfies SettingDefinition<V2StringShape>,
  queryPlacement: {
    env: 'SFD_QUERY_PLACEMENT',
    description: 'where a GET or HEAD query is signed (docs/signing.md)',
    ...oneOf(QUERY_PLACEMENTS),
    default: 'body',
    commands: SIGNING_FORM,
  } satisfies SettingDefinition<QueryPlacement>,
  maxBodyBytes: {
    env: 'SFD_MAX_BODY_BYTES',
    description: 'largest request body accepted (413 beyond)',
    ...integer(1, 1024 * MiB),
    default: MiB,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  upstreamTimeoutMs: {
    env: 'SFD_UPSTREAM_TIMEOUT_MS',
    description:
      "time allowed for the gateway's response headers, and for each idle gap in its body (504 when nothing " +
      'was sent yet)',
    ...integer(1, 3_600_000),
    default: 30_000,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  upstreamCaFile: {
    env: 'SFD_UPSTREAM_CA_FILE',
    description:
      'PEM bundle trusted besides the system roots for an HTTPS gateway (and an https:// egress proxy); ' +
      'verification is never off',
    ...text('a file path'),
    commands: SERVE,
  } satisfies SettingDefinition<string>,
  upstreamProxy: {
    env: 'SFD_UPSTREAM_PROXY',
    description:
      'HTTP proxy HTTPS gateways are reached through (a CONNECT tunnel: TLS and the signature stay end to ' +
      'end); by default HTTPS_PROXY or https_proxy, set aside with a warning when it is not such a URL; ' +
      'plain-HTTP and loopback gateways connect directly',
    parse: (raw: string) => ok(raw),
    allowed: 'http://[user:password@]host:port or https://...',
    defaultText: '$HTTPS_PROXY',
    secret: true,
    commands: SERVE,
  } satisfies SettingDefinition<string>,
  upstreamNoProxy: {
    env: 'SFD_UPSTREAM_NO_PROXY',
    description:
      'gateway hosts reached directly despite the proxy; by default NO_PROXY or no_proxy, whose entries it ' +
      'cannot read are skipped with a warning',
    parse: (raw: string) => ok(raw),
    allowed:
      'comma-separated names (example.com with its subdomains, .example.com only them), addresses or CIDR ' +
      'blocks, each with an optional :port; or *',
    defaultText: '$NO_PROXY',
    commands: SERVE,
  } satisfies SettingDefinition<string>,
  upstreamMaxSockets: {
    env: 'SFD_UPSTREAM_MAX_SOCKETS',
    description:
      'most connections to the gateway at once; further requests wait (throughput is at most this many over ' +
      'the gateway latency)',
    ...integer(1, 10_000),
    default: 256,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  upstreamRetries: {
    env: 'SFD_UPSTREAM_RETRIES',
    description:
      'retries, with backoff and a fresh signature, of a request that provably never reached the gateway (its ' +
      'connection could not be opened, or a kept-alive one was found closed before a byte was written); once a ' +
      'byte was written it is never sent again',
    ...integer(0, 10),
    default: 2,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  retryMethods: {
    env: 'SFD_RETRY_METHODS',
    description: 'methods retried when a request never reached the gateway; POST only if listed',
    parse: parseMethods,
    allowed: 'comma-separated HTTP methods',
    default: ['GET', 'HEAD'],
    commands: SERVE,
  } satisfies SettingDefinition<string[]>,
  maxConnections: {
    env: 'SFD_MAX_CONNECTIONS',
    description:
      "most connections the signing listener (or the injector's webhook) holds; at the bound room is made from " +
      "the source address holding the most, never from one holding fewer than the newcomer's, its longest idle " +
      'connection first, and a newcomer gets 503 Sidecar.ConnectionsFull only when none can go',
    ...integer(1, 1_000_000),
    default: 2048,
    commands: LISTENERS,
  } satisfies SettingDefinition<number>,
  adminMaxConnections: {
    env: 'SFD_ADMIN_MAX_CONNECTIONS',
    description:
      'most connections the admin listener holds (it is reachable from the whole cluster), made room for in ' +
      'the same way',
    ...integer(1, 1_000_000),
    default: 128,
    commands: LISTENERS,
  } satisfies SettingDefinition<number>,
  maxInflight: {
    env: 'SFD_MAX_INFLIGHT',
    description: 'requests handled at once; beyond it 503 Sidecar.Overloaded',
    ...integer(1, 1_000_000),
    default: 1024,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  maxBufferedBodyBytes: {
    env: 'SFD_MAX_BUFFERED_BODY_BYTES',
    description:
      'most request-body bytes the signing listener holds at once, counted as they arrive (the injector: ' +
      'review bodies and the answers its callers have not read yet); what does not fit gets 503 ' +
      'Sidecar.BodyBufferFull (before it is sent when its length cannot fit); at least SFD_MAX_BODY_BYTES',
    ...integer(1, 64 * 1024 * MiB),
    defaultText:
      `${BUFFERED_BODY_DEFAULTS.serve}, or SFD_MAX_BODY_BYTES when that is larger ` +
      `(injector: ${BUFFERED_BODY_DEFAULTS.injector})`,
    commands: ['serve', 'injector'],
  } satisfies SettingDefinition<number>,
  maxHeaderBytes: {
    env: 'SFD_MAX_HEADER_BYTES',
    description: 'largest request head a caller may send to any listener (431 beyond)',
    ...integer(1024, MiB),
    default: 16_384,
    commands: LISTENERS,
  } satisfies SettingDefinition<number>,
  clientHeadersTimeoutMs: {
    env: 'SFD_CLIENT_HEADERS_TIMEOUT_MS',
    description: 'time a caller of any listener has to send the request head (408 beyond)',
    ...integer(100, 600_000),
    default: 10_000,
    commands: LISTENERS,
  } satisfies SettingDefinition<number>,
  clientRequestTimeoutMs: {
    env: 'SFD_CLIENT_REQUEST_TIMEOUT_MS',
    description: 'time a caller of any listener has to send the whole request (408 beyond)',
    ...integer(100, 3_600_000),
    default: 60_000,
    commands: LISTENERS,
  } satisfies SettingDefinition<number>,
  clientKeepAliveTimeoutMs: {
    env: 'SFD_CLIENT_KEEPALIVE_TIMEOUT_MS',
    description:
      "how long any listener keeps a caller's idle connection open (announced as Keep-Alive: timeout=); keep " +
      "it above the callers' own",
    ...integer(1000, 3_600_000),
    default: 65_000,
    commands: LISTENERS,
  } satisfies SettingDefinition<number>,
  clientMinBodyBytesPerSecond: {
    env: 'SFD_CLIENT_MIN_BODY_BYTES_PER_SECOND',
    description:
      'after its first two seconds, a request body sent to any listener must have arrived at this average rate ' +
      'at least (408 below); 0 for no minimum',
    ...integer(0, 1024 * MiB),
    default: 1024,
    commands: LISTENERS,
  } satisfies SettingDefinition<number>,
  shutdownDelayMs: {
    env: 'SFD_SHUTDOWN_DELAY_MS',
    description:
      'on SIGTERM, time every listener keeps serving before the drain: for a sidecar that gets SIGTERM with ' +
      'its application (the classic form), whose last calls come after it',
    ...integer(0, 3_600_000),
    default: 0,
    commands: ['serve'],
  } satisfies SettingDefinition<number>,
  shutdownTimeoutMs: {
    env: 'SFD_SHUTDOWN_TIMEOUT_MS',
    description: 'on SIGTERM, time allowed for the requests in flight before exit',
    ...integer(0, 3_600_000),
    default: 10_000,
    commands: ['serve', 'injector'],
  } satisfies SettingDefinition<number>,
  notifyListen: {
    env: 'SFD_NOTIFY_LISTEN',
    description: 'the notification relay listener, e.g. :8081; off when unset',
    ...listen,
    commands: SERVE,
  } satisfies SettingDefinition<ListenAddress>,
  notifyPath: {
    env: 'SFD_NOTIFY_PATH',
    description: 'path the service posts notifications to',
    parse: parseNotifyPath,
    allowed: 'a path starting with /',
    default: '/notifications',
    commands: SERVE,
  } satisfies SettingDefinition<string>,
  notifyForwardUrl: {
    env: 'SFD_NOTIFY_FORWARD_URL',
    description:
      'where the application takes notifications, e.g. http://127.0.0.1:3000/hooks/sfd; required with ' +
      'SFD_NOTIFY_LISTEN',
    parse: parseForwardUrl,
    allowed: 'an http:// or https:// URL',
    commands: SERVE,
  } satisfies SettingDefinition<URL>,
  notifyToken: {
    env: 'SFD_NOTIFY_TOKEN',
    description: 'when set, the callback path must end with /TOKEN, compared in constant time',
    parse: parseNotifyToken,
    allowed: '16 to 256 URL-safe characters',
    secret: true,
    commands: SERVE,
  } satisfies SettingDefinition<string>,
  notifyAllowedCidrs: {
    env: 'SFD_NOTIFY_ALLOWED_CIDRS',
    description: 'source ranges allowed to post notifications; any when unset',
    parse: parseCidrs,
    allowed: 'comma-separated addresses or CIDR ranges, IPv4 or IPv6',
    commands: SERVE,
  } satisfies SettingDefinition<string>,
  notifyRequireHeader: {
    env: 'SFD_NOTIFY_REQUIRE_HEADER',
    description: 'require X-SFD-Notification-From: LLS (or X-Notification-from) on notifications',
    ...oneOf(['true', 'false'] as const),
    default: 'true',
    commands: SERVE,
  } satisfies SettingDefinition<'true' | 'false'>,
  notifyMaxBodyBytes: {
    env: 'SFD_NOTIFY_MAX_BODY_BYTES',
    description: 'largest notification accepted (413 beyond)',
    ...integer(1, 16 * MiB),
    default: 65_536,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  notifyMaxInflight: {
    env: 'SFD_NOTIFY_MAX_INFLIGHT',
    description:
      'notifications in hand at once (arrived, being checked or delivered); beyond it 503 Sidecar.Overloaded, ' +
      'before the body is read when the relay is already full, so that the service sends them again',
    ...integer(1, 100_000),
    default: 64,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  notifyMaxConnections: {
    env: 'SFD_NOTIFY_MAX_CONNECTIONS',
    description:
      'most connections the notification relay holds, made room for as SFD_MAX_CONNECTIONS says: a source ' +
      'address alone (an ingress) may hold them all',
    ...integer(1, 1_000_000),
    default: 256,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  notifyTimeoutMs: {
    env: 'SFD_NOTIFY_TIMEOUT_MS',
    description: 'time the application has to accept a notification (503 to the service beyond)',
    ...integer(1, 600_000),
    default: 10_000,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  notifyDeadLetterDir: {
    env: 'SFD_NOTIFY_DEAD_LETTER_DIR',
    description:
      'directory where invalid notifications are appended to notifications-dead-letter.jsonl; must exist and ' +
      'be writable',
    ...text('a directory path'),
    commands: SERVE,
  } satisfies SettingDefinition<string>,
  notifyDeadLetterMaxBytes: {
    env: 'SFD_NOTIFY_DEAD_LETTER_MAX_BYTES',
    description:
      'largest size of the dead-letter file; at least 6 times (SFD_NOTIFY_MAX_BODY_BYTES + ' +
      'SFD_MAX_HEADER_BYTES) + 4096; an invalid notification that would pass it is answered 503',
    ...integer(1024, 2 ** 40),
    default: 64 * MiB,
    commands: SERVE,
  } satisfies SettingDefinition<number>,
  image: {
    env: 'SFD_IMAGE',
    description: 'the sidecar image added to pods',
    ...text('an image reference'),
    defaultText: `${IMAGE_REPOSITORY}:VERSION (this build's version)`,
    commands: INJECT,
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
    commands: INJECT,
  } satisfies SettingDefinition<string>,
  keystoreSecret: {
    env: 'SFD_KEYSTORE_SECRET',
    description:
      "the Secret holding the key store, in each pod's namespace; a pod's sfd-sidecar.io/keystore-secret " +
      'annotation wins',
    parse: parseObjectName,
    allowed: 'a Secret name',
    commands: INJECT,
  } satisfies SettingDefinition<string>,
  keystoreSecretKey: {
    env: 'SFD_KEYSTORE_SECRET_KEY',
    description: 'the key of that Secret holding the key store file',
    ...text('a Secret key'),
    default: 'keystore.json',
    commands: INJECT,
  } satisfies SettingDefinition<string>,
  keystoreLayout: {
    env: 'SFD_KEYSTORE_LAYOUT',
    description:
      'how the key store Secret is laid out: file (one key store file, SFD_KEYSTORE_SECRET_KEY, mounted with ' +
      'the whole Secret) or per-profile (one <profile>.json per profile, each holding that profile with its ' +
      'secrets inline; a pod mounts only the files of the profiles it uses, and one missing fails its mount)',
    ...oneOf(KEYSTORE_LAYOUTS),
    default: 'file',
    commands: INJECT,
  } satisfies SettingDefinition<KeystoreLayout>,
  sidecarMode: {
    env: 'SFD_SIDECAR_MODE',
    description:
      'native: an init container with restartPolicy Always (Kubernetes 1.29+); classic: the first container, ' +
      "with a postStart wait; a pod's sfd-sidecar.io/mode annotation wins",
    ...oneOf(INJECTION_MODES),
    default: 'native',
    commands: INJECT,
  } satisfies SettingDefinition<InjectionMode>,
  imagePullPolicy: {
    env: 'SFD_IMAGE_PULL_POLICY',
    description: 'when the kubelet pulls the sidecar image: Always, IfNotPresent or Never',
    ...oneOf(IMAGE_PULL_POLICIES),
    default: 'IfNotPresent',
    commands: INJECT,
  } satisfies SettingDefinition<ImagePullPolicy>,
  sidecarCpuRequest: {
    env: 'SFD_SIDECAR_CPU_REQUEST',
    description: "the sidecar's CPU request; a pod's sfd-sidecar.io/cpu-request annotation wins",
    ...quantity('a CPU quantity (50m, 0.1, 1)', 'cpu'),
    default: '50m',
    commands: INJECT,
  } satisfies SettingDefinition<string>,
  sidecarMemoryRequest: {
    env: 'SFD_SIDECAR_MEMORY_REQUEST',
    description: "the sidecar's memory request; a pod's sfd-sidecar.io/memory-request annotation wins",
    ...quantity('a memory quantity (96Mi, 128Mi, 1Gi)', 'memory'),
    default: '96Mi',
    commands: INJECT,
  } satisfies SettingDefinition<string>,
  sidecarCpuLimit: {
    env: 'SFD_SIDECAR_CPU_LIMIT',
    description: "the sidecar's CPU limit, none when empty; a pod's sfd-sidecar.io/cpu-limit annotation wins",
    ...quantity('a CPU quantity, or empty for none', 'cpu', true),
    default: '',
    commands: INJECT,
  } satisfies SettingDefinition<string>,
  sidecarMemoryLimit: {
    env: 'SFD_SIDECAR_MEMORY_LIMIT',
    description:
      "the sidecar's memory limit, at least what its heap cap and runtime need (192Mi); a pod's " +
      'sfd-sidecar.io/memory-limit annotation wins',
    ...quantity('a memory quantity of at least 192Mi', 'memory', false, 192 * MiB),
    default: '192Mi',
    commands: INJECT,
  } satisfies SettingDefinition<string>,
  sidecarUser: {
    env: 'SFD_SIDECAR_USER',
    description:
      'the user id the injected sidecar runs as (and its group), or platform to leave both to the platform ' +
      "(OpenShift's restricted-v2 assigns them); a pod's sfd-sidecar.io/sidecar-user annotation wins",
    parse: parseSidecarUser,
    allowed: 'a user id from 1 to 2147483647, or platform',
    default: 65532,
    commands: INJECT,
  } satisfies SettingDefinition<SidecarUser>,
  policyFile: {
    env: 'SFD_POLICY_FILE',
    description:
      'the entitlement policy (YAML): which namespaces and service accounts may use which profiles; a pod ' +
      'outside it is refused; the injector re-reads it when it changes; without one, every profile may be used',
    ...text('a file path'),
    commands: INJECT,
  } satisfies SettingDefinition<string>,
  injectorListen: {
    env: 'SFD_INJECTOR_LISTEN',
    description: 'the HTTPS listener of the admission webhook (POST /mutate, POST /mutate/namespace)',
    ...listen,
    default: { host: '', port: 8443 },
    commands: ['injector'],
  } satisfies SettingDefinition<ListenAddress>,
  tlsCertFile: {
    env: 'SFD_TLS_CERT_FILE',
    description: "the webhook's certificate (PEM), re-read when it changes; required",
    ...text('a file path'),
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
  tlsKeyFile: {
    env: 'SFD_TLS_KEY_FILE',
    description: "the webhook's private key (PEM), re-read when it changes; required",
    ...text('a file path'),
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
  injectorTlsSecret: {
    env: 'SFD_INJECTOR_TLS_SECRET',
    description:
      'a Secret in which the injector keeps a CA and a serving certificate of its own, renewed before they ' +
      'expire, and writes the CA bundle into SFD_INJECTOR_WEBHOOK; instead of SFD_TLS_CERT_FILE and ' +
      'SFD_TLS_KEY_FILE',
    parse: parseObjectName,
    allowed: 'an object name',
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
  injectorWebhook: {
    env: 'SFD_INJECTOR_WEBHOOK',
    description: 'the MutatingWebhookConfiguration whose CA bundle the injector keeps; with SFD_INJECTOR_TLS_SECRET',
    parse: parseObjectName,
    allowed: 'an object name',
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
  injectorService: {
    env: 'SFD_INJECTOR_SERVICE',
    description:
      "the webhook's Service as NAME.NAMESPACE: the names its serving certificate is for, and the namespace " +
      'of SFD_INJECTOR_TLS_SECRET; with SFD_INJECTOR_TLS_SECRET',
    parse: parseServiceName,
    allowed: 'NAME.NAMESPACE, two DNS labels',
    commands: ['injector'],
  } satisfies SettingDefinition<{ name: string; namespace: string }>,
  injectorApiCredentials: {
    env: 'SFD_INJECTOR_API_CREDENTIALS',
    description:
      'the folder holding the service account token (token) and the API server CA (ca.crt) the injector calls the ' +
      'Kubernetes API with (KUBERNETES_SERVICE_HOST and _PORT name the server); with SFD_INJECTOR_TLS_SECRET',
    default: '/var/run/secrets/kubernetes.io/serviceaccount',
    ...text('a folder'),
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
  requestLog: {
    env: 'SFD_REQUEST_LOG',
    description:
      'which requests get a log line: all, failed (no answer, status 400 or above, cut off, a sidecar error, ' +
      'or signed again with another key) or off; metrics count every request either way',
    ...oneOf(REQUEST_LOG_MODES),
    default: 'all',
    commands: ['serve'],
  } satisfies SettingDefinition<RequestLogMode>,
  logLevel: {
    env: 'SFD_LOG_LEVEL',
    description: 'the least severe log lines written',
    ...oneOf(LOG_LEVELS),
    default: 'info',
    commands: ['serve', 'injector'],
  } satisfies SettingDefinition<LogLevel>,
});

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_LIST: readonly SettingDefinition[] = Object.values(SETTINGS);

/** The value type of a setting. */
export type SettingValue<K extends SettingKey> = (typeof SETTINGS)[K] extends SettingDefinition<infer T> ? T : never;

/** --x-y for SFD_X_Y. */
export function flagFor(env: string): string {
  return `--${env.replace(/^SFD_/, '').toLowerCase().replace(/_/g, '-')}`;
}

/** The default as shown in help and docs; undefined when there is none. */
export function defaultTextOf(definition: SettingDefinition): string | undefined {
  if (definition.defaultText !== undefined) return definition.defaultText;
  const value = definition.default;
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'object' && value !== null)
    return 'port' in value ? formatListen(value as ListenAddress) : JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
