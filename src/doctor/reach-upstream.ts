// Whether the upstream can be reached, as an operator would check it by hand: DNS, TCP and TLS, or
// through the egress proxy, the tunnel and then TLS inside it.
import type { UpstreamTarget } from '../config/parsers.js';
import type { CheckResult } from './check-result.js';
import { checkDns, checkTcp, checkTls } from './network-checks.js';
import { openTunnel } from './tunnel-check.js';

/** The checks of the way to the upstream, stopping at the first failure; through `proxy` when there is one. */
export function reachUpstream(
  proxy: URL | null,
  upstream: UpstreamTarget,
  ca: string | null,
  now: number,
  timeoutMs: number,
): Promise<CheckResult[]> {
  return proxy ? checkThroughProxy(proxy, upstream, ca, now, timeoutMs) : checkDirect(upstream, ca, now, timeoutMs);
}

/** DNS, TCP and TLS to the upstream, stopping at the first failure. */
async function checkDirect(
  upstream: UpstreamTarget,
  ca: string | null,
  now: number,
  timeoutMs: number,
): Promise<CheckResult[]> {
  const dns = await checkDns(upstream);
  if (dns.verdict === 'fail') return [dns];
  const tcp = await checkTcp(upstream, timeoutMs);
  if (tcp.verdict === 'fail') return [dns, tcp];
  return [dns, tcp, await checkTls(upstream, ca, now, timeoutMs)];
}

/** The proxy resolves and connects to the upstream: the tunnel, then TLS inside it. */
async function checkThroughProxy(
  proxy: URL,
  upstream: UpstreamTarget,
  ca: string | null,
  now: number,
  timeoutMs: number,
): Promise<CheckResult[]> {
  const tunnel = await openTunnel(proxy, upstream, ca, timeoutMs);
  if (!tunnel.socket) return [tunnel.result];
  try {
    return [tunnel.result, await checkTls(upstream, ca, now, timeoutMs, tunnel.socket)];
  } finally {
    tunnel.socket.destroy();
  }
}
