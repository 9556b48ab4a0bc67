// Which connections go through the egress proxy, and how the proxy is authenticated to (it is named, in
// logs and the doctor, without its credentials by config/describe-url.ts):
// what the calls out of the sidecar do with the proxy settings config/egress-proxy.ts reads.
import type { EgressProxy } from '../config/egress-proxy.js';
import { isLoopback } from '../config/no-proxy.js';
import type { UpstreamTarget } from '../config/parsers.js';

/** The proxy a connection to this upstream goes through, or null for a direct connection. */
export function proxyFor(egress: EgressProxy | null, upstream: UpstreamTarget): URL | null {
  if (!egress || upstream.protocol !== 'https:' || isLoopback(upstream.hostname)) return null;
  return egress.noProxy.bypasses(upstream.hostname, upstream.port) ? null : egress.url;
}

/** The proxy's credentials as a Basic Proxy-Authorization header, as curl sends them; none without. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'Proxy-Authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}
