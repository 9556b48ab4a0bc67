// What the injector's certificates should be now, from what its Secret holds: a CA of its own signs the
// serving certificate, and the webhook configuration trusts a bundle of CAs. The serving certificate is
// renewed well before it expires under the same CA, so the bundle does not change. A CA is replaced in
// two steps so that no admission call fails across the switch: the next CA first joins the bundle, and
// only once the webhook configuration is seen to trust it (and every API server has had time to pick
// that up) does it sign the serving certificate; the old CA stays in the bundle until it expires.
// The decision is made on facts (certificate-states.ts); keys are made only to carry it out.
import { observeCertificates } from './certificate-facts.js';
import { performCertificateActions } from './certificate-actions.js';
import { decideCertificates } from './certificate-states.js';
import type { PlanInput, StoredCertificates } from './plan-input.js';

export {
  DEFAULT_CERTIFICATE_POLICY,
  type CertificatePolicy,
  type PlanInput,
  type StoredCertificates,
} from './plan-input.js';

export interface CertificatePlan {
  readonly certificates: StoredCertificates;
  /** The CAs the webhook configuration must trust, PEM, oldest first. */
  readonly bundle: string;
  /** What changed and why, for the log; empty when nothing did. */
  readonly changes: readonly string[];
}

export async function planCertificates(stored: StoredCertificates, input: PlanInput): Promise<CertificatePlan> {
  const decision = decideCertificates(observeCertificates(stored, input), input);
  const { certificates, changes } = await performCertificateActions(stored, decision.actions, input);
  const bundle = [certificates.previous, certificates.current?.cert, certificates.next?.cert]
    .filter((pem): pem is string => pem !== undefined)
    .map((pem) => pem.trim() + '\n')
    .join('');
  return { certificates, bundle, changes };
}
