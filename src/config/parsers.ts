// Parsers for setting values: each returns a value or the sentence "what is allowed" for the error list.
import { describeUrl } from './describe-url.js';

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly allowed: string;
      /** The value as an error may repeat it, when not as written (a URL without its credentials). */
      readonly shown?: string;
    };

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const fail = <T>(allowed: string): Parsed<T> => ({ ok: false, allowed });
/** A URL refused: an error repeats it without the user and password it may carry. */
export const failUrl = <T>(allowed: string, raw: string): Parsed<T> => ({
  ok: false,
  allowed,
  shown: describeUrl(raw),
});

export interface ListenAddress {
  /** An address of the host, or '' for every address (IPv4 and IPv6). */
  readonly host: string;
  readonly port: number;
}

/**
 * `host:port`, `[ipv6]:port`, or `:port` for every address of the host, IPv4 and IPv6 alike (host ''):
 * Node's own unspecified address, `::` with IPv4 callers as IPv4-mapped addresses, or `0.0.0.0` where
 * the kernel has no IPv6. A pod's probes and scrapes come to its IP, IPv6 in an IPv6 cluster, which
 * `0.0.0.0` does not reach. Port 0-65535 (0 picks a free port).
 */
export function parseListen(raw: string): Parsed<ListenAddress> {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(raw.trim());
  const port = match ? Number(match[3]) : Number.NaN;
  const host = match ? (match[1] ?? match[2]) : undefined;
  if (host === undefined || !(port >= 0 && port <= 65535))
    return fail(
      'HOST:PORT, or :PORT for every address (IPv4 and IPv6), for example 127.0.0.1:8080, [::1]:8080 or :9090',
    );
  return ok(Object.freeze({ host, port }));
}

/** `host:port`, `[ipv6]:port`, or `:port` for every address. */
export function formatListen({ host, port }: ListenAddress): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export function parseInteger(min: number, max: number): (raw: string) => Parsed<number> {
  return (raw) => {
    const text = raw.trim();
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    return value >= min && value <= max ? ok(value) : fail(`a whole number from ${min} to ${max}`);
  };
}

export function parseOneOf<T extends string>(values: readonly T[]): (raw: string) => Parsed<T> {
  return (raw) => {
    const text = raw.trim();
    return (values as readonly string[]).includes(text) ? ok(text as T) : fail(`one of ${values.join(', ')}`);
  };
}

/** The upstream: where requests go and whose host is signed. */
export interface UpstreamTarget {
  readonly protocol: 'http:' | 'https:';
  readonly hostname: string;
  /** Explicit or default port. */
  readonly port: number;
  /** The signed and sent Host: `:port` only when not the scheme's default. */
  readonly host: string;
  /** Path prefix without a trailing slash, '' when none. */
  readonly pathPrefix: string;
  readonly origin: string;
}

const URL_ALLOWED =
  'an http:// or https:// base URL like https://host[:port][/prefix], without user, query or fragment';

export function parseUpstreamUrl(raw: string): Parsed<UpstreamTarget> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return failUrl(URL_ALLOWED, raw);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return failUrl(URL_ALLOWED, raw);
  if (url.username || url.password || url.search || url.hash) return failUrl(URL_ALLOWED, raw);
  const protocol = url.protocol;
  const defaultPort = protocol === 'https:' ? 443 : 80;
  return ok(
    Object.freeze({
      protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port ? Number(url.port) : defaultPort,
      host: url.host,
      pathPrefix: withoutTrailingSlashes(url.pathname),
      origin: url.origin,
    }),
  );
}

/** The text without the slashes that end it, found from the end: a pattern would rescan each run of them. */
function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end -= 1;
  return text.slice(0, end);
}

/** An access key id is sent as `HMAC-SHA256 <id>:<signature>`, so it cannot hold spaces or colons. */
export const ACCESS_KEY_ID_PATTERN = /^[\x21-\x39\x3b-\x7e]{1,128}$/;

export function parseAccessKeyId(raw: string): Parsed<string> {
  const text = raw.trim();
  return ACCESS_KEY_ID_PATTERN.test(text) ? ok(text) : fail('1 to 128 printable characters without spaces or colons');
}

export const parseMethods = (raw: string): Parsed<string[]> => {
  const methods = raw
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter((m) => m !== '');
  return methods.length > 0 && methods.every((m) => /^[A-Z]+$/.test(m))
    ? ok(methods)
    : fail('a comma-separated list of HTTP methods, e.g. GET,HEAD');
};

/** A Kubernetes object name (RFC 1123 subdomain), as a Secret's or ConfigMap's must be. */
export const OBJECT_NAME = {
  pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$',
  maxLength: 253,
} as const;
/** A DNS label (RFC 1123), as a namespace's or a Service's name must be. */
export const DNS_LABEL = { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 } as const;

const matches = (name: { pattern: string; maxLength: number }) => {
  const pattern = new RegExp(name.pattern);
  return (text: string) => text.length <= name.maxLength && pattern.test(text);
};
const isObjectName = matches(OBJECT_NAME);
/** Whether the text is a DNS label: a namespace's or a Service's name. */
export const isDnsLabel = matches(DNS_LABEL);

export const parseObjectName = (raw: string): Parsed<string> =>
  isObjectName(raw.trim()) ? ok(raw.trim()) : fail('an object name: lower-case letters, digits, - and ., at most 253');

/** A Service as NAME.NAMESPACE. */
export const parseServiceName = (raw: string): Parsed<{ name: string; namespace: string }> => {
  const [name = '', namespace = '', ...rest] = raw.trim().split('.');
  return isDnsLabel(name) && isDnsLabel(namespace) && rest.length === 0
    ? ok({ name, namespace })
    : fail('NAME.NAMESPACE: two DNS labels (lower-case letters, digits and -, at most 63 each)');
};
