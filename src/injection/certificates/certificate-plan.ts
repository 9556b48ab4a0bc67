// What the injector's certificates should be now, from what its Secret holds: a CA of its own signs the
// serving certificate, and the webhook configuration trusts a bundle of CAs. The serving certificate is
// renewed well before it expires under the same CA, so the bundle does not change. A CA is replaced in
// two steps so that no admission call fails across the switch: the next CA first joins the bundle, and
// only once the webhook configuration is seen to trust it (and every API server has had time to pick
// that up) does it sign the serving certificate; the old CA stays in the bundle until it expires.
import { createSecureContext } from 'node:tls';
import {
  dnsNamesOf,
  issueCa,
  issueServingCertificate,
  signedBy,
  validityOf,
  type IssuedPair,
} from './certificate-issuer.js';

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

export interface CertificatePlan {
  readonly certificates: StoredCertificates;
  /** The CAs the webhook configuration must trust, PEM, oldest first. */
  readonly bundle: string;
  /** What changed and why, for the log; empty when nothing did. */
  readonly changes: readonly string[];
}

export interface PlanInput {
  readonly now: number;
  readonly dnsNames: readonly string[];
  /** The bundles the webhook configuration holds now (one per webhook), PEM. */
  readonly trusted: readonly string[];
  readonly policy: CertificatePolicy;
}

const validAt = (pem: string | undefined, now: number, margin = 0): boolean => {
  const validity = pem === undefined ? undefined : validityOf(pem);
  return validity !== undefined && validity.notBefore <= now && now + margin < validity.notAfter;
};

export async function planCertificates(stored: StoredCertificates, input: PlanInput): Promise<CertificatePlan> {
  const { now, policy } = input;
  const changes: string[] = [];
  const window = (ms: number) => ({ notBefore: now - policy.backdateMs, notAfter: now + ms });
  let { current, next, previous, serving } = stored;
  if (current === undefined || !validAt(current.cert, now)) {
    changes.push(current === undefined ? 'no CA yet: made one' : 'the CA had expired: made a new one');
    current = await issueCa('sfd-sidecar-injector-ca', window(policy.caValidityMs));
    next = undefined;
    serving = undefined;
  }
  if (
    next !== undefined &&
    now - next.since >= policy.switchAfterMs &&
    input.trusted.length > 0 &&
    input.trusted.every((bundle) => bundle.includes(next!.cert.trim()))
  ) {
    changes.push('the next CA is trusted by the webhook configuration: it signs from now on');
    previous = current.cert;
    current = { cert: next.cert, key: next.key };
    next = undefined;
  }
  if (next === undefined && !validAt(current.cert, now, policy.caRenewBeforeMs)) {
    changes.push('the CA expires soon: made the next one, trusted before it signs');
    next = { ...(await issueCa('sfd-sidecar-injector-ca', window(policy.caValidityMs))), since: now };
  }
  if (previous !== undefined && !validAt(previous, now)) {
    changes.push('dropped the expired previous CA');
    previous = undefined;
  }
  const reason = servingProblem(serving, current, input);
  if (reason !== undefined) {
    changes.push(`serving certificate renewed: ${reason}`);
    const caEnd = validityOf(current.cert)!.notAfter;
    const { notBefore, notAfter } = window(policy.servingValidityMs);
    serving = await issueServingCertificate(current, input.dnsNames, {
      notBefore,
      notAfter: Math.min(notAfter, caEnd),
    });
  }
  const bundle = [previous, current.cert, next?.cert]
    .filter((pem): pem is string => pem !== undefined)
    .map((pem) => pem.trim() + '\n')
    .join('');
  return { certificates: { current, next, previous, serving }, bundle, changes };
}

function servingProblem(serving: IssuedPair | undefined, ca: IssuedPair, input: PlanInput): string | undefined {
  if (serving === undefined) return 'none yet';
  if (!signedBy(serving.cert, ca.cert)) return 'not signed by the current CA';
  const validity = validityOf(serving.cert)!;
  if (validity.notBefore > input.now || validity.notAfter <= input.now) return 'outside its validity';
  // A certificate that already lasts as long as its CA is not renewed: a new one could not last longer.
  const lastsAsLongAsCa = validity.notAfter >= validityOf(ca.cert)!.notAfter;
  if (validity.notAfter - input.now < input.policy.servingRenewBeforeMs && !lastsAsLongAsCa) return 'expires soon';
  if (!matchingKey(serving)) return 'its key does not match it';
  const names = dnsNamesOf(serving.cert);
  if (names.length !== input.dnsNames.length || input.dnsNames.some((name) => !names.includes(name)))
    return "the webhook's service names changed";
  return undefined;
}

function matchingKey(pair: IssuedPair): boolean {
  try {
    createSecureContext({ cert: pair.cert, key: pair.key });
    return true;
  } catch {
    return false;
  }
}
