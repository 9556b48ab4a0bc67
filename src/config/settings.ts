// Every setting as data: environment variable, default, meaning. The flag of SFD_X_Y is --x-y.
// The README's configuration table is checked against this list by test/unit/readme-tables.test.ts.

export interface SettingDefinition {
  readonly env: `SFD_${string}`;
  /** The default as documented; undefined when there is none. */
  readonly defaultText?: string;
  readonly description: string;
  /** A secret value: never echoed in errors, logs or output. */
  readonly secret?: boolean;
}

const define = <T extends Record<string, SettingDefinition>>(table: T): T => table;

export const SETTINGS = define({
  envFile: { env: 'SFD_ENV_FILE', defaultText: '.env', description: 'dotenv file read at start when present; real environment variables win over it' },
  upstreamUrl: { env: 'SFD_UPSTREAM_URL', description: 'base URL of the gateway, https://host[:port][/prefix]; required except in the demo' },
  listen: { env: 'SFD_LISTEN', defaultText: '127.0.0.1:8080', description: 'signing listener; keep it on loopback' },
  adminListen: { env: 'SFD_ADMIN_LISTEN', defaultText: ':9090', description: 'admin listener: /healthz, /readyz, /metrics; :PORT is every address of the pod, IPv4 and IPv6 (what probes and scrapes reach in any cluster)' },
  accessKeyId: { env: 'SFD_ACCESS_KEY_ID', description: 'access key id' },
  accessKeySecret: { env: 'SFD_ACCESS_KEY_SECRET', description: 'access key secret (prefer the _FILE form)', secret: true },
  accessKeySecretFile: { env: 'SFD_ACCESS_KEY_SECRET_FILE', description: 'file holding the access key secret; one trailing newline is ignored' },
  keystoreFile: { env: 'SFD_KEYSTORE_FILE', description: 'key store file (JSON, or YAML when named .yaml/.yml); instead of the single-key settings' },
  profile: { env: 'SFD_PROFILE', defaultText: 'default', description: 'the profile this sidecar signs with' },
  profileHeader: { env: 'SFD_PROFILE_HEADER', description: 'header a caller may use to pick a profile among SFD_ALLOWED_PROFILES; off when unset; never forwarded' },
  allowedProfiles: { env: 'SFD_ALLOWED_PROFILES', description: 'comma-separated profiles a caller may pick with SFD_PROFILE_HEADER' },
  keystoreReloadIntervalMs: { env: 'SFD_KEYSTORE_RELOAD_INTERVAL_MS', defaultText: '60000', description: 'the key store is re-read this often as a backstop to watching it' },
  keystoreDebounceMs: { env: 'SFD_KEYSTORE_DEBOUNCE_MS', defaultText: '200', description: 'wait after a change in the key store directory before reading it' },
  keyExpiryWarningDays: { env: 'SFD_KEY_EXPIRY_WARNING_DAYS', defaultText: '7', description: 'a key this close to notAfter is logged once a day' },
  signatureVersion: { env: 'SFD_SIGNATURE_VERSION', defaultText: '2', description: 'signature scheme: 2 or 1' },
  v2StringShape: { env: 'SFD_V2_STRING_SHAPE', defaultText: 'spec', description: 'scheme 2 string shape: spec, no-extra-lf, no-keyid, no-keyid-no-extra-lf' },
  queryPlacement: { env: 'SFD_QUERY_PLACEMENT', defaultText: 'body', description: 'where a GET/HEAD query is signed: body or uri' },
  maxBodyBytes: { env: 'SFD_MAX_BODY_BYTES', defaultText: '1048576', description: 'largest request body accepted (413 beyond)' },
  upstreamTimeoutMs: { env: 'SFD_UPSTREAM_TIMEOUT_MS', defaultText: '30000', description: 'time allowed for the upstream response headers (504 beyond)' },
  upstreamCaFile: { env: 'SFD_UPSTREAM_CA_FILE', description: 'PEM bundle trusted in addition to the system roots for an HTTPS upstream' },
  upstreamProxy: { env: 'SFD_UPSTREAM_PROXY', defaultText: '$HTTPS_PROXY', description: 'HTTP proxy through which HTTPS upstreams are reached, http://[user:password@]host:port: a CONNECT tunnel, so TLS and the signature stay end to end; by default the value of HTTPS_PROXY (or https_proxy), set aside with a warning when it is not such a URL; plain-HTTP and loopback upstreams always connect directly', secret: true },
  upstreamNoProxy: { env: 'SFD_UPSTREAM_NO_PROXY', defaultText: '$NO_PROXY', description: 'upstream hosts reached directly despite the proxy: comma-separated names (example.com covers its subdomains, .example.com only them), addresses, CIDR blocks, each with an optional :port, or *; by default the value of NO_PROXY (or no_proxy), whose entries it cannot read are skipped with a warning' },
  upstreamMaxSockets: { env: 'SFD_UPSTREAM_MAX_SOCKETS', defaultText: '256', description: 'most connections to the upstream at once; further requests wait for one (`sfd_upstream_waiting_requests`). Throughput is at most this many divided by the gateway latency (256 at 100 ms: 2,560 requests/s), and bursts need room above the average in flight' },
  upstreamRetries: { env: 'SFD_UPSTREAM_RETRIES', defaultText: '2', description: 'retries of a request that provably never reached the upstream (the connection could not be opened, or a kept-alive one was found closed before a byte was written), with backoff, re-signed each time; once a byte is written a request is never sent again' },
  retryMethods: { env: 'SFD_RETRY_METHODS', defaultText: 'GET,HEAD', description: 'methods retried when a request never reached the upstream; POST only if listed' },
  maxConnections: { env: 'SFD_MAX_CONNECTIONS', defaultText: '2048', description: 'most connections the signing listener holds; at the bound the longest idle one is closed first, and a new one is refused with 503 Sidecar.ConnectionsFull only when every other carries a request' },
  adminMaxConnections: { env: 'SFD_ADMIN_MAX_CONNECTIONS', defaultText: '128', description: 'most connections the admin listener holds (it is reachable from the whole cluster); idle ones are closed first to make room' },
  maxInflight: { env: 'SFD_MAX_INFLIGHT', defaultText: '1024', description: 'requests handled at once; beyond it 503 Sidecar.Overloaded' },
  maxBufferedBodyBytes: { env: 'SFD_MAX_BUFFERED_BODY_BYTES', defaultText: '16777216', description: 'most request-body bytes the signing listener holds at once, counted as they arrive (16 MiB, or SFD_MAX_BODY_BYTES when that is larger); a body that does not fit gets 503 Sidecar.BodyBufferFull' },
  maxHeaderBytes: { env: 'SFD_MAX_HEADER_BYTES', defaultText: '16384', description: 'largest request head a caller may send to any listener (431 beyond)' },
  clientHeadersTimeoutMs: { env: 'SFD_CLIENT_HEADERS_TIMEOUT_MS', defaultText: '10000', description: 'time a caller of any listener has to send the request head (408 beyond)' },
  clientRequestTimeoutMs: { env: 'SFD_CLIENT_REQUEST_TIMEOUT_MS', defaultText: '60000', description: 'time a caller of any listener has to send the whole request (408 beyond)' },
  clientKeepAliveTimeoutMs: { env: 'SFD_CLIENT_KEEPALIVE_TIMEOUT_MS', defaultText: '65000', description: "how long any listener keeps a caller's idle connection open (announced as Keep-Alive: timeout=); keep it above the callers' own idle timeout" },
  clientMinBodyBytesPerSecond: { env: 'SFD_CLIENT_MIN_BODY_BYTES_PER_SECOND', defaultText: '1024', description: 'after its first two seconds, a request body sent to any listener must have arrived at this average rate at least (408 below, so that slow callers cannot hold the listener); 0 for no minimum' },
  shutdownDelayMs: { env: 'SFD_SHUTDOWN_DELAY_MS', defaultText: '0', description: 'on SIGTERM/SIGINT, time every listener keeps serving (new connections too) before the drain; for a sidecar that gets SIGTERM with its application (the chart\'s classic mode), whose last calls come after it' },
  shutdownTimeoutMs: { env: 'SFD_SHUTDOWN_TIMEOUT_MS', defaultText: '10000', description: 'on SIGTERM/SIGINT, time allowed for in-flight requests before exit' },
  notifyListen: { env: 'SFD_NOTIFY_LISTEN', description: 'notification relay listener, e.g. :8081 (every address, IPv4 and IPv6); off when unset' },
  notifyPath: { env: 'SFD_NOTIFY_PATH', defaultText: '/notifications', description: 'path the service posts notifications to' },
  notifyForwardUrl: { env: 'SFD_NOTIFY_FORWARD_URL', description: 'where the application takes notifications, e.g. http://127.0.0.1:3000/hooks/sfd; required with SFD_NOTIFY_LISTEN' },
  notifyToken: { env: 'SFD_NOTIFY_TOKEN', description: 'when set, the callback path must end with /<token>', secret: true },
  notifyAllowedCidrs: { env: 'SFD_NOTIFY_ALLOWED_CIDRS', description: 'comma-separated source ranges allowed to post, e.g. 203.0.113.0/24; any when unset' },
  notifyRequireHeader: { env: 'SFD_NOTIFY_REQUIRE_HEADER', defaultText: 'true', description: 'require X-SFD-Notification-From: LLS (or X-Notification-from): true or false' },
  notifyMaxBodyBytes: { env: 'SFD_NOTIFY_MAX_BODY_BYTES', defaultText: '65536', description: 'largest notification accepted (413 beyond)' },
  notifyMaxInflight: { env: 'SFD_NOTIFY_MAX_INFLIGHT', defaultText: '64', description: 'notifications handled at once (their body arrived; being checked or delivered); beyond it 503 Sidecar.Overloaded, before the body is read when the relay is already full, so that the service sends them again; a notification still arriving holds no place' },
  notifyMaxConnections: { env: 'SFD_NOTIFY_MAX_CONNECTIONS', defaultText: '256', description: 'most connections the notification relay holds; idle ones are closed first to make room' },
  notifyTimeoutMs: { env: 'SFD_NOTIFY_TIMEOUT_MS', defaultText: '10000', description: 'time the application has to accept a notification (503 to the service beyond)' },
  notifyDeadLetterDir: { env: 'SFD_NOTIFY_DEAD_LETTER_DIR', description: 'directory where invalid notifications are appended to notifications-dead-letter.jsonl; must exist and be writable' },
  notifyDeadLetterMaxBytes: { env: 'SFD_NOTIFY_DEAD_LETTER_MAX_BYTES', defaultText: '67108864', description: 'largest size of the dead-letter file (at least 6 times SFD_NOTIFY_MAX_BODY_BYTES plus SFD_MAX_HEADER_BYTES, plus 4096); an invalid notification that would pass it is answered 503 so that the service may send it again' },
  image: { env: 'SFD_IMAGE', defaultText: 'ghcr.io/example/sfd-sidecar:VERSION', description: 'inject and injector: the sidecar image added to pods (VERSION: this build\'s)' },
  keystoreSecret: { env: 'SFD_KEYSTORE_SECRET', description: 'inject and injector: the Secret holding the key store, in each pod\'s namespace; a pod\'s sfd-sidecar.io/keystore-secret annotation wins' },
  keystoreSecretKey: { env: 'SFD_KEYSTORE_SECRET_KEY', defaultText: 'keystore.json', description: 'inject and injector: the key of that Secret holding the key store file (JSON, or YAML when it ends in .yaml/.yml)' },
  sidecarMode: { env: 'SFD_SIDECAR_MODE', defaultText: 'native', description: 'inject and injector: native (an init container with restartPolicy Always, Kubernetes 1.29+) or classic (a container started first, with a postStart wait); a pod\'s sfd-sidecar.io/mode annotation wins' },
  injectorListen: { env: 'SFD_INJECTOR_LISTEN', defaultText: ':8443', description: 'injector: the HTTPS listener of the admission webhook (POST /mutate, POST /mutate/namespace)' },
  tlsCertFile: { env: 'SFD_TLS_CERT_FILE', description: 'injector: the webhook\'s certificate (PEM), re-read when it changes' },
  tlsKeyFile: { env: 'SFD_TLS_KEY_FILE', description: 'injector: the webhook\'s private key (PEM), re-read when it changes' },
  requestLog: { env: 'SFD_REQUEST_LOG', defaultText: 'all', description: 'which requests get a log line: all, failed (no answer, status 400 or above, cut off, a sidecar error, or signed again with another key) or off; metrics count every request either way' },
  logLevel: { env: 'SFD_LOG_LEVEL', defaultText: 'info', description: 'trace, debug, info, warn, error, fatal or silent' },
});

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_LIST: readonly SettingDefinition[] = Object.values(SETTINGS);

/** --x-y for SFD_X_Y. */
export function flagFor(env: string): string {
  return `--${env.replace(/^SFD_/, '').toLowerCase().replace(/_/g, '-')}`;
}
