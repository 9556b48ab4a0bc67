// The Secret's certificates reduced to the facts the plan decides on: when each is valid, whether the
// webhook configuration trusts the next CA, who signed the serving certificate and whether it fits.
// Reading them takes the certificates apart; deciding on them is plain data, testable without keys.
import { createSecureContext } from 'node:tls';
import { dnsNamesOf, signedBy, validityOf, type IssuedPair, type Validity } from './certificate-issuer.js';
import type { PlanInput, StoredCertificates } from './plan-input.js';

export interface CertificateFacts {
  readonly current?: Validity;
  readonly next?: Validity & {
    /** When it joined the bundle. */
    readonly since: number;
    /** Whether every webhook's bundle holds it now (false when any webhook trusts nothing). */
    readonly inEveryBundle: boolean;
  };
  readonly previous?: Validity;
  readonly serving?: Validity & {
    readonly signedBy: 'current' | 'next' | 'neither';
    readonly keyMatches: boolean;
    readonly dnsNames: readonly string[];
  };
}

/** A certificate that does not parse is valid at no time, so the plan replaces it like an expired one. */
const NEVER: Validity = { notBefore: Number.POSITIVE_INFINITY, notAfter: Number.NEGATIVE_INFINITY };

const windowOf = (pem: string): Validity => validityOf(pem) ?? NEVER;

export function observeCertificates(stored: StoredCertificates, input: PlanInput): CertificateFacts {
  const { current, next, previous, serving } = stored;
  return {
    ...(current && { current: windowOf(current.cert) }),
    ...(next && {
      next: {
        ...windowOf(next.cert),
        since: next.since,
        inEveryBundle: input.trusted.length > 0 && input.trusted.every((bundle) => bundle.includes(next.cert.trim())),
      },
    }),
    ...(previous !== undefined && { previous: windowOf(previous) }),
    ...(serving && {
      serving: {
        ...windowOf(serving.cert),
        signedBy:
          current && signedBy(serving.cert, current.cert)
            ? 'current'
            : next && signedBy(serving.cert, next.cert)
              ? 'next'
              : 'neither',
        keyMatches: matchingKey(serving),
        dnsNames: dnsNamesOf(serving.cert),
      },
    }),
  };
}

function matchingKey(pair: IssuedPair): boolean {
  try {
    createSecureContext({ cert: pair.cert, key: pair.key });
    return true;
  } catch {
    return false;
  }
}
