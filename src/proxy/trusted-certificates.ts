// What a TLS connection to the gateway (or to an https:// egress proxy) trusts: the system roots, plus
// the PEM of SFD_UPSTREAM_CA_FILE when one is set. Node's `ca` option replaces the roots, so they are
// listed again beside it; the sidecar and the doctor check certificates alike.
import { rootCertificates } from 'node:tls';

/** The `ca` option for `upstreamCa`; undefined (Node's own roots) when none is configured. */
export function trustedCertificates(upstreamCa: string | null): string[] | undefined {
  return upstreamCa ? [...rootCertificates, upstreamCa] : undefined;
}
