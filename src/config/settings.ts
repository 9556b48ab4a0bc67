// The signing sidecar's core settings: the proxy's, its keys', the gateway's, its listeners' and limits',
// and the logs'. They live here, below every part, because many read them: serve and doctor, the keys,
// the proxy, and injection, which writes them into the sidecar it adds. A feature that reads its own
// alone declares them beside its code (the relay's in notify/, the injector's in injection/); the
// registry (src/settings/) assembles them all into the one list help, docs and the chart derive from.
import {
  OPERATIONS_SETTING_ALLOWED,
  parseOperationsSetting,
  type ProfileNarrowing,
} from '../operations/operations-setting.js';
import type { SignatureVersion, QueryPlacement, V2StringShape } from '../signing/types.js';
import { QUERY_PLACEMENTS, SIGNATURE_VERSIONS, V2_STRING_SHAPES } from '../signing/types.js';
import {
  fail,
  ok,
  parseAccessKeyId,
  parseMethods,
  parseUpstreamUrl,
  type ListenAddress,
  type UpstreamTarget,
} from './parsers.js';
import { parseHeaderName, parseProfileList, parseProfileName } from './profile-parsers.js';
import {
  EVERY_COMMAND,
  INJECT_COMMANDS,
  SERVE_COMMANDS,
  defineSettings,
  type SettingDefinition,
} from './setting-definition.js';
import { integer, listen, MiB, oneOf, text } from './setting-kinds.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** Which requests get their log line. */
export const REQUEST_LOG_MODES = ['all', 'failed', 'off'] as const;
export type RequestLogMode = (typeof REQUEST_LOG_MODES)[number];

const SIGNING_FORM = ['serve', 'doctor', 'sign', 'emulator'] as const;
const KEYS = ['serve', 'doctor', 'sign', 'emulator', 'keys'] as const;
const LISTENERS = ['serve', 'doctor', 'injector'] as const;

/**
 * The default of SFD_MAX_BUFFERED_BODY_BYTES: the signing listener's, and the injector's, which the
 * injector's memory limit in the chart leaves room for.
 */
export const BUFFERED_BODY_DEFAULTS = Object.freeze({ serve: 16 * MiB, injector: 8 * MiB });

export const SIDECAR_SETTINGS = defineSettings({
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
    commands: [...SERVE_COMMANDS, ...INJECT_COMMANDS],
  } satisfies SettingDefinition<UpstreamTarget>,
  listen: {
    env: 'SFD_LISTEN',
    description: 'the signing listener; keep it on loopback: whoever reaches it signs with the key',
    ...listen,
    default: { host: '127.0.0.1', port: 8080 },
    commands: SERVE_COMMANDS,
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
    commands: [...SERVE_COMMANDS, 'keys', ...INJECT_COMMANDS],
  } satisfies SettingDefinition<string>,
  profileHeader: {
    env: 'SFD_PROFILE_HEADER',
    description:
      'header a caller may use to pick a profile among SFD_ALLOWED_PROFILES; never forwarded; off when unset',
    parse: parseHeaderName,
    allowed: 'a header name the sidecar does not set itself',
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<string>,
  allowedProfiles: {
    env: 'SFD_ALLOWED_PROFILES',
    description: 'profiles a caller may pick with SFD_PROFILE_HEADER (required with it)',
    parse: parseProfileList,
    allowed: 'comma-separated profile names',
    commands: SERVE_COMMANDS,
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
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
  signatureVersion: {
    env: 'SFD_SIGNATURE_VERSION',
    description: 'the signature scheme (docs/signing.md)',
    ...oneOf(SIGNATURE_VERSIONS),
    default: '2',
    commands: [...SIGNING_FORM, ...INJECT_COMMANDS],
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
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
  upstreamTimeoutMs: {
    env: 'SFD_UPSTREAM_TIMEOUT_MS',
    description:
      "time allowed for the gateway's response headers, and for each idle gap in its body (504 when nothing " +
      'was sent yet)',
    ...integer(1, 3_600_000),
    default: 30_000,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
  upstreamCaFile: {
    env: 'SFD_UPSTREAM_CA_FILE',
    description:
      'PEM bundle trusted besides the system roots for an HTTPS gateway (and an https:// egress proxy); ' +
      'verification is never off',
    ...text('a file path'),
    commands: SERVE_COMMANDS,
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
    commands: SERVE_COMMANDS,
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
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<string>,
  upstreamMaxSockets: {
    env: 'SFD_UPSTREAM_MAX_SOCKETS',
    description:
      'most connections to the gateway at once; further requests wait (throughput is at most this many over ' +
      'the gateway latency)',
    ...integer(1, 10_000),
    default: 256,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
  upstreamRetries: {
    env: 'SFD_UPSTREAM_RETRIES',
    description:
      'retries, with backoff and a fresh signature, of a request that provably never reached the gateway (its ' +
      'connection could not be opened, or a kept-alive one was found closed before a byte was written); once a ' +
      'byte was written it is never sent again',
    ...integer(0, 10),
    default: 2,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
  retryMethods: {
    env: 'SFD_RETRY_METHODS',
    description: 'methods retried when a request never reached the gateway; POST only if listed',
    parse: parseMethods,
    allowed: 'comma-separated HTTP methods',
    default: ['GET', 'HEAD'],
    commands: SERVE_COMMANDS,
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
    commands: SERVE_COMMANDS,
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
});

/** The logs' settings, read by the sidecar and the injector; last in help and docs. */
export const LOG_SETTINGS = defineSettings({
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

/** The sidecar's own settings, by key: what the readers of this folder read. */
export const SETTINGS = { ...SIDECAR_SETTINGS, ...LOG_SETTINGS };
