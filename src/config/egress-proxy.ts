// The egress proxy, for clusters whose pods reach the internet only through an HTTP proxy:
// SFD_UPSTREAM_PROXY (by default the conventional HTTPS_PROXY/https_proxy) and SFD_UPSTREAM_NO_PROXY
// (by default NO_PROXY/no_proxy). HTTPS upstreams are reached through a CONNECT tunnel, so TLS and the
// signature stay end to end; plain-HTTP and loopback upstreams always connect directly.
import { parseNoProxy, readNoProxy, type NoProxyList } from './no-proxy.js';
import { fail, ok, type Parsed } from './parsers.js';
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

const PROXY_ALLOWED =
  'an http:// or https:// proxy URL like http://[user:password@]proxy.example:3128, without path, query or fragment';
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

export interface EgressProxySettings {
  /** The proxy HTTPS upstreams go through; null when they connect directly. */
  readonly proxy: EgressProxy | null;
  /** Why a conventional HTTPS_PROXY was not used (never its value); null when nothing was set aside. */
  readonly ignored: string | null;
}

/**
 * Reads the proxy settings, falling back to the variables every HTTP client reads. SFD_UPSTREAM_PROXY
 * and SFD_UPSTREAM_NO_PROXY are strict: a value the sidecar cannot use stops it at start. HTTPS_PROXY
 * and NO_PROXY are the whole pod's, often written for other clients (a socks5:// proxy, an entry only
 * curl reads): what the sidecar cannot use is set aside with a warning, and the sidecar still starts.
 */
export function readEgressProxy(r: SettingReader): EgressProxySettings {
  const own = SETTINGS.upstreamProxy.env;
  const proxy = r.rawWithFallback(SETTINGS.upstreamProxy, ['HTTPS_PROXY', 'https_proxy']);
  const noProxy = r.rawWithFallback(SETTINGS.upstreamNoProxy, ['NO_PROXY', 'no_proxy']);
  const ownNoProxy = noProxy?.name === SETTINGS.upstreamNoProxy.env;
  const strictList = noProxy && ownNoProxy ? r.parseFrom(noProxy.name, noProxy.text, parseNoProxy, false) : undefined;
  if (!proxy) return { proxy: null, ignored: null };
  let url: URL | undefined;
  if (proxy.name === own) {
    url = r.parseFrom(own, proxy.text, parseProxyUrl, true);
  } else {
    const parsed = parseProxyUrl(proxy.text);
    if (!parsed.ok) {
      const ignored =
        `${proxy.name} is not a proxy the sidecar can use (it must be ${parsed.allowed}); upstreams are ` +
        `reached directly. Set ${own} to give the sidecar its own proxy`;
      return { proxy: null, ignored };
    }
    url = parsed.value;
  }
  if (!url) return { proxy: null, ignored: null };
  const lenient = noProxy && !ownNoProxy ? readNoProxy(noProxy.text) : undefined;
  const egress = Object.freeze({
    url,
    noProxy: strictList ?? lenient?.list ?? NOTHING_BYPASSES,
    source: proxy.name,
    unreadNoProxy: lenient?.unread ?? [],
  });
  return { proxy: egress, ignored: null };
}
