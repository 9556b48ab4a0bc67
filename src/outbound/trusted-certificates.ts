// What a TLS connection to the gateway (or to an https:// egress proxy) trusts: the system roots, plus
// the PEM of SFD_UPSTREAM_CA_FILE when one is set. Node's `ca` option replaces the roots, so they are
// listed again beside it; the sidecar and the doctor check certificates alike.
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

/** The `ca` option for `upstreamCa`; undefined (Node's own roots) when none is configured. */
export function trustedCertificates(upstreamCa: string | null): string[] | undefined {
  return upstreamCa ? [...rootCertificates, upstreamCa] : undefined;
}

/** The TLS trust of a pooled agent: one secure context, or Node's defaults. */
export interface AgentTrust {
  readonly secureContext?: SecureContext;
}

/**
 * The same certificates as `trustedCertificates`, for a keep-alive agent: built once into one secure
 * context rather than passed as `ca`. Node's https agent names each pool by its options, `ca` joined
 * into the name (hundreds of kilobytes with the system roots, built several times per request), and
 * builds a new context from `ca` for every connection; it leaves `secureContext` out of the name.
 */
export function agentTrust(upstreamCa: string | null): AgentTrust {
  const ca = trustedCertificates(upstreamCa);
  return ca ? { secureContext: createSecureContext({ ca }) } : {};
}
