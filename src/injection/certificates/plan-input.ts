// What the certificate plan is given: the certificates the injector's Secret holds, the webhook
// configuration's bundles, the time and the names to serve, and how long each certificate lasts.
import type { IssuedPair } from './certificate-issuer.js';

export interface CertificatePolicy {
  readonly caValidityMs: number;
  /** A next CA is made when the current one has less than this left. */
  readonly caRenewBeforeMs: number;
  readonly servingValidityMs: number;
  readonly servingRenewBeforeMs: number;
  /** How long the next CA is in the bundle before it signs: API servers see configuration changes late. */
  readonly switchAfterMs: number;
  /** Certificates start this long before they are made, for clocks behind the injector's. */
  readonly backdateMs: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const DEFAULT_CERTIFICATE_POLICY: CertificatePolicy = {
  caValidityMs: 365 * DAY,
  caRenewBeforeMs: 60 * DAY,
  servingValidityMs: 30 * DAY,
  servingRenewBeforeMs: 10 * DAY,
  switchAfterMs: HOUR,
  backdateMs: HOUR,
};

export interface StoredCertificates {
  readonly current?: IssuedPair;
  readonly next?: IssuedPair & { readonly since: number };
  /** The CA before the current one, trusted until it expires (serving certificates it signed may remain). */
  readonly previous?: string;
  readonly serving?: IssuedPair;
}

export interface PlanInput {
  readonly now: number;
  readonly dnsNames: readonly string[];
  /** The bundles the webhook configuration holds now (one per webhook), PEM. */
  readonly trusted: readonly string[];
  readonly policy: CertificatePolicy;
}
