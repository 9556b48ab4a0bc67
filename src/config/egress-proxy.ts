// The egress proxy, for clusters whose pods reach the internet only through an HTTP proxy:
// SFD_UPSTREAM_PROXY (by default the conventional HTTPS_PROXY/https_proxy) and SFD_UPSTREAM_NO_PROXY
// (by default NO_PROXY/no_proxy). HTTPS upstreams are reached through a CONNECT tunnel, so TLS and the
// signature stay end to end; plain-HTTP and loopback upstreams always connect directly.
import { isLoopback, parseNoProxy, readNoProxy, type NoProxyList } from './no-proxy.js';
import { fail, ok, type Parsed, type UpstreamTarget } from './parsers.js';
import type { SettingReader } from './setting-reader.js';
import { SETTINGS } from './settings.js';

export interface EgressProxy {
  /** http(s)://[user:password@]host:port ; the credentials go in Proxy-Authorization, never in logs. */
  readonly url: URL;
  readonly noProxy: NoProxyList;
  /** The variable the proxy was read from: SFD_UPSTREAM_PROXY, HTTPS_PROXY or https_proxy. */
  readonly source: string;
  /** Entries of a conventional NO_PROXY the sidecar could not read and skipped (logged at start). */
  readonly unreadNoProxy: readonly string[];
}

const PROXY_ALLOWED = 'an http:// or https:// proxy URL like http://[user:password@]proxy.example:3128, without path, query or fragment';
const NOTHING_BYPASSES: NoProxyList = { bypasses: () => false };

/** As curl and most clients do, a proxy written without a scheme (`proxy:3128`) is an http:// one. */
export function parseProxyUrl(raw: string): Parsed<URL> {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    return fail(PROXY_ALLOWED);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return fail(PROXY_ALLOWED);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return fail(PROXY_ALLOWED);
  try {
    // The credentials are decoded when sent (Proxy-Authorization); a stray % would fail there, per request.
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    return fail(`${PROXY_ALLOWED}, whose user and password are percent-encoded (a % in them as %25)`);
  }
  return ok(url);
}

/** Reads the proxy settings, falling back to the variables every HTTP client reads; null when no proxy is set. */
export function readEgressProxy(r: SettingReader): EgressProxy | null {
  const proxy = r.rawWithFallback('upstreamProxy', ['HTTPS_PROXY', 'https_proxy']);
  const noProxy = r.rawWithFallback('upstreamNoProxy', ['NO_PROXY', 'no_proxy']);
  // Ours is read strictly; a conventional NO_PROXY written for every client in the cluster is not.
  const strictList = noProxy?.name === SETTINGS.upstreamNoProxy.env ? r.parseFrom(noProxy.name, noProxy.text, parseNoProxy, false) : undefined;
  if (!proxy) return null;
  const own = SETTINGS.upstreamProxy.env;
  const named = proxy.name === own ? own : `${proxy.name} (the default of ${own}, which overrides it)`;
  const url = r.parseFrom(named, proxy.text, parseProxyUrl, true);
  if (!url) return null;
  const lenient = noProxy && noProxy.name !== SETTINGS.upstreamNoProxy.env ? readNoProxy(noProxy.text) : undefined;
  return Object.freeze({
    url,
    noProxy: strictList ?? lenient?.list ?? NOTHING_BYPASSES,
    source: proxy.name,
    unreadNoProxy: lenient?.unread ?? [],
  });
}

/** The proxy a connection to this upstream goes through, or null for a direct connection. */
export function proxyFor(egress: EgressProxy | null, upstream: UpstreamTarget): URL | null {
  if (!egress || upstream.protocol !== 'https:' || isLoopback(upstream.hostname)) return null;
  return egress.noProxy.bypasses(upstream.hostname, upstream.port) ? null : egress.url;
}

/** The proxy's address without its credentials, for logs and the doctor. */
export function describeProxy(url: URL): string {
  return `${url.protocol}//${url.host}${url.username || url.password ? ' (with credentials)' : ''}`;
}
