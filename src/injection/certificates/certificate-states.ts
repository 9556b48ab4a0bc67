// What the injector does to its certificates, decided from facts alone: the Secret is in one named
// state on each of three counts (the CA rotation, the previous CA, the serving certificate), and each
// state maps to actions, as data, that the executor then performs with keys. Nothing here reads a
// certificate or makes one, so every state is tested with validity windows and trust written out.
import type { CertificateFacts } from './certificate-facts.js';
import type { Validity } from './certificate-issuer.js';
import type { PlanInput } from './plan-input.js';

export type CertificateAction =
  /** A CA of its own replaces the current one and any next one: a rotation starts afresh. */
  | 'make-ca'
  /** A next CA joins the bundle; it signs only once the webhook configuration is seen to trust it. */
  | 'make-next'
  /** The next CA signs from now on; the current one becomes the previous CA. */
  | 'promote-next'
  /** The next CA's wait starts again, for the bundle the webhook configuration is about to receive. */
  | 'restart-next-wait'
  | 'drop-next'
  | 'drop-previous'
  /** A serving certificate from the CA that signs, once the actions before it have run. */
  | 'renew-serving';

export interface PlannedAction {
  readonly action: CertificateAction;
  /** What changed and why, for the log. */
  readonly why: string;
}

export type Moment = Pick<PlanInput, 'now' | 'dnsNames' | 'policy'>;

const validAt = (window: Validity, at: number): boolean => window.notBefore <= at && at < window.notAfter;

// The CA rotation: the current CA and the next one, each in one class, and the state the pair is in.

export type CurrentClass = 'missing' | 'expired' | 'expiring' | 'valid';
export type NextClass = 'none' | 'expired' | 'young' | 'untrusted' | 'trusted';

export function currentClass(facts: CertificateFacts, { now, policy }: Moment): CurrentClass {
  if (facts.current === undefined) return 'missing';
  if (!validAt(facts.current, now)) return 'expired';
  return validAt(facts.current, now + policy.caRenewBeforeMs) ? 'valid' : 'expiring';
}

export function nextClass(facts: CertificateFacts, { now, policy }: Moment): NextClass {
  const next = facts.next;
  if (next === undefined) return 'none';
  if (!validAt(next, now)) return 'expired';
  if (now - next.since < policy.switchAfterMs) return 'young';
  return next.inEveryBundle ? 'trusted' : 'untrusted';
}

export type RotationState =
  | 'steady'
  | 'ca-expiring'
  | 'next-waiting'
  | 'next-untrusted'
  | 'next-trusted'
  | 'next-expired'
  | 'next-expired-ca-expiring'
  | 'no-ca'
  | 'ca-expired'
  | 'ca-expired-next-trusted'
  | 'ca-expired-next-pending'
  | 'next-without-ca';

// Once the current CA cannot sign, any valid next CA signs in its place, trusted or not: it has been in
// the bundle for a while, so at least as many API servers trust it as would trust a CA made now.
const ROTATION_STATES: Readonly<Record<CurrentClass, Readonly<Record<NextClass, RotationState>>>> = {
  valid: {
    none: 'steady',
    expired: 'next-expired',
    young: 'next-waiting',
    untrusted: 'next-untrusted',
    trusted: 'next-trusted',
  },
  expiring: {
    none: 'ca-expiring',
    expired: 'next-expired-ca-expiring',
    young: 'next-waiting',
    untrusted: 'next-untrusted',
    trusted: 'next-trusted',
  },
  expired: {
    none: 'ca-expired',
    expired: 'ca-expired',
    young: 'ca-expired-next-pending',
    untrusted: 'ca-expired-next-pending',
    trusted: 'ca-expired-next-trusted',
  },
  missing: {
    none: 'no-ca',
    expired: 'no-ca',
    young: 'next-without-ca',
    untrusted: 'next-without-ca',
    trusted: 'next-without-ca',
  },
};

export function classifyRotation(facts: CertificateFacts, moment: Moment): RotationState {
  return ROTATION_STATES[currentClass(facts, moment)][nextClass(facts, moment)];
}

const MAKE_NEXT: PlannedAction = {
  action: 'make-next',
  why: 'the CA expires soon: made the next one, trusted before it signs',
};
const DROP_NEXT: PlannedAction = { action: 'drop-next', why: 'dropped the next CA, expired before it signed' };

export const ROTATION_ACTIONS: Readonly<Record<RotationState, readonly PlannedAction[]>> = {
  steady: [],
  'ca-expiring': [MAKE_NEXT],
  'next-waiting': [],
  'next-untrusted': [
    {
      action: 'restart-next-wait',
      why: 'the webhook configuration does not trust the next CA: it is put back, and waits again before it signs',
    },
  ],
  'next-trusted': [
    { action: 'promote-next', why: 'the next CA is trusted by the webhook configuration: it signs from now on' },
  ],
  'next-expired': [DROP_NEXT],
  'next-expired-ca-expiring': [DROP_NEXT, MAKE_NEXT],
  'no-ca': [{ action: 'make-ca', why: 'no CA yet: made one' }],
  'ca-expired': [{ action: 'make-ca', why: 'the CA had expired: made a new one' }],
  'ca-expired-next-trusted': [
    {
      action: 'promote-next',
      why: 'the CA had expired: the next CA, which the webhook configuration trusts, signs from now on',
    },
  ],
  'ca-expired-next-pending': [
    {
      action: 'promote-next',
      why: 'the CA had expired: the next CA signs from now on, its wait not over, as a new CA would be trusted later',
    },
  ],
  'next-without-ca': [{ action: 'promote-next', why: 'no CA signs: the next CA does from now on' }],
};

// The previous CA, as it stands once the rotation's actions have run: a promotion makes the current CA
// the previous one.

export type PreviousState = 'no-previous' | 'previous-valid' | 'previous-expired';

export function classifyPrevious(previous: Validity | undefined, { now }: Moment): PreviousState {
  if (previous === undefined) return 'no-previous';
  return validAt(previous, now) ? 'previous-valid' : 'previous-expired';
}

export const PREVIOUS_ACTIONS: Readonly<Record<PreviousState, readonly PlannedAction[]>> = {
  'no-previous': [],
  'previous-valid': [],
  'previous-expired': [{ action: 'drop-previous', why: 'dropped the expired previous CA' }],
};

// The serving certificate, against the CA that signs once the rotation's actions have run.

export type Signer = 'current' | 'next' | 'new';

export type ServingState =
  | 'serving-missing'
  | 'serving-other-ca'
  | 'serving-outside-validity'
  | 'serving-expiring'
  | 'serving-wrong-key'
  | 'serving-wrong-names'
  | 'serving-good';

export function classifyServing(facts: CertificateFacts, signer: Signer, moment: Moment): ServingState {
  const { serving } = facts;
  const { now, policy } = moment;
  if (serving === undefined) return 'serving-missing';
  const signerWindow = signer === 'new' ? undefined : facts[signer];
  if (signer !== serving.signedBy || signerWindow === undefined) return 'serving-other-ca';
  if (!validAt(serving, now)) return 'serving-outside-validity';
  // A certificate that already lasts as long as its CA is not renewed: a new one could not last longer.
  const lastsAsLongAsCa = serving.notAfter >= signerWindow.notAfter;
  if (serving.notAfter - now < policy.servingRenewBeforeMs && !lastsAsLongAsCa) return 'serving-expiring';
  if (!serving.keyMatches) return 'serving-wrong-key';
  const names = serving.dnsNames;
  if (names.length !== moment.dnsNames.length || moment.dnsNames.some((name) => !names.includes(name)))
    return 'serving-wrong-names';
  return 'serving-good';
}

const renew = (reason: string): readonly PlannedAction[] => [
  { action: 'renew-serving', why: `serving certificate renewed: ${reason}` },
];

export const SERVING_ACTIONS: Readonly<Record<ServingState, readonly PlannedAction[]>> = {
  'serving-missing': renew('none yet'),
  'serving-other-ca': renew('not signed by the current CA'),
  'serving-outside-validity': renew('outside its validity'),
  'serving-expiring': renew('expires soon'),
  'serving-wrong-key': renew('its key does not match it'),
  'serving-wrong-names': renew("the webhook's service names changed"),
  'serving-good': [],
};

export interface CertificateDecision {
  readonly rotation: RotationState;
  readonly previous: PreviousState;
  readonly serving: ServingState;
  /** In the order they run: the rotation, then the previous CA, then the serving certificate. */
  readonly actions: readonly PlannedAction[];
}

export function decideCertificates(facts: CertificateFacts, moment: Moment): CertificateDecision {
  const rotation = classifyRotation(facts, moment);
  const rotating = ROTATION_ACTIONS[rotation].map((planned) => planned.action);
  const promotes = rotating.includes('promote-next');
  const signer: Signer = promotes ? 'next' : rotating.includes('make-ca') ? 'new' : 'current';
  const previous = classifyPrevious(promotes ? facts.current : facts.previous, moment);
  const serving = classifyServing(facts, signer, moment);
  return {
    rotation,
    previous,
    serving,
    actions: [...ROTATION_ACTIONS[rotation], ...PREVIOUS_ACTIONS[previous], ...SERVING_ACTIONS[serving]],
  };
}
