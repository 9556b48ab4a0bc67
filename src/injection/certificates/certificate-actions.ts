// Performs the actions the certificate states decided, in order, with keys: each makes, moves or drops
// one certificate of the Secret, and says what changed.
import { issueCa, issueServingCertificate, validityOf } from './certificate-issuer.js';
import type { PlannedAction } from './certificate-states.js';
import type { PlanInput, StoredCertificates } from './plan-input.js';

const CA_NAME = 'sfd-sidecar-injector-ca';

export async function performCertificateActions(
  stored: StoredCertificates,
  actions: readonly PlannedAction[],
  input: PlanInput,
): Promise<{ certificates: StoredCertificates; changes: string[] }> {
  const { now, policy } = input;
  const window = (ms: number) => ({ notBefore: now - policy.backdateMs, notAfter: now + ms });
  let { current, next, previous, serving } = stored;
  const missing = (what: string, action: string) => new Error(`${action} needs ${what}, and the Secret holds none`);
  for (const { action } of actions) {
    switch (action) {
      case 'make-ca':
        current = await issueCa(CA_NAME, window(policy.caValidityMs));
        next = undefined;
        break;
      case 'make-next':
        next = { ...(await issueCa(CA_NAME, window(policy.caValidityMs))), since: now };
        break;
      case 'promote-next':
        if (next === undefined) throw missing('a next CA', action);
        previous = current?.cert;
        current = { cert: next.cert, key: next.key };
        next = undefined;
        break;
      case 'restart-next-wait':
        if (next === undefined) throw missing('a next CA', action);
        next = { ...next, since: now };
        break;
      case 'drop-next':
        next = undefined;
        break;
      case 'drop-previous':
        previous = undefined;
        break;
      case 'renew-serving': {
        if (current === undefined) throw missing('a CA', action);
        const caEnd = validityOf(current.cert)?.notAfter ?? now;
        const { notBefore, notAfter } = window(policy.servingValidityMs);
        serving = await issueServingCertificate(current, input.dnsNames, {
          notBefore,
          notAfter: Math.min(notAfter, caEnd),
        });
        break;
      }
    }
  }
  return { certificates: { current, next, previous, serving }, changes: actions.map((planned) => planned.why) };
}
