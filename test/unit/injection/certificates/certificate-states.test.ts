// Every state the injector's certificates can be in, as data: validity windows and trust written out,
// no keys and no cluster. Each case names its state, the facts that put the Secret there, and the
// actions the plan takes; every state of each table has a case.
import test from 'ava';
import type { CertificateFacts } from '../../../../src/injection/certificates/certificate-facts.js';
import {
  decideCertificates,
  PREVIOUS_ACTIONS,
  ROTATION_ACTIONS,
  SERVING_ACTIONS,
  type CertificateAction,
  type Moment,
  type PreviousState,
  type RotationState,
  type ServingState,
} from '../../../../src/injection/certificates/certificate-states.js';
import { DEFAULT_CERTIFICATE_POLICY } from '../../../../src/injection/certificates/plan-input.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2030, 0, 15);
const NAMES = ['hook.sfd-system.svc', 'hook'];
const MOMENT: Moment = { now: NOW, dnsNames: NAMES, policy: DEFAULT_CERTIFICATE_POLICY };

/** Valid from `from` days to `to` days from now. */
const days = (from: number, to: number) => ({ notBefore: NOW + from * DAY, notAfter: NOW + to * DAY });
const CA_VALID = days(-10, 355);
const CA_EXPIRING = days(-330, 30);
const CA_EXPIRED = days(-400, -1);
const NEXT_VALID = days(-30, 335);
const NEXT_EXPIRED = days(-500, -2);
const waitOver = { since: NOW - 2 * HOUR, inEveryBundle: true };
const serving = (over: Partial<NonNullable<CertificateFacts['serving']>> = {}): CertificateFacts['serving'] => ({
  ...days(-1, 29),
  signedBy: 'current',
  keyMatches: true,
  dnsNames: NAMES,
  ...over,
});

interface Case {
  readonly facts: CertificateFacts;
  readonly rotation: RotationState;
  readonly previous?: PreviousState;
  readonly serving?: ServingState;
  readonly actions: readonly CertificateAction[];
}

const ROTATION_CASES: readonly (Case & { readonly why: string })[] = [
  {
    why: 'a CA with a long time left',
    facts: { current: CA_VALID, serving: serving() },
    rotation: 'steady',
    actions: [],
  },
  {
    why: 'the CA has less than the renewal margin left, and no next one',
    facts: { current: CA_EXPIRING, serving: serving() },
    rotation: 'ca-expiring',
    actions: ['make-next'],
  },
  {
    why: 'the next CA joined the bundle less than the switch delay ago',
    facts: {
      current: CA_EXPIRING,
      next: { ...NEXT_VALID, since: NOW - 10 * 60_000, inEveryBundle: true },
      serving: serving(),
    },
    rotation: 'next-waiting',
    actions: [],
  },
  {
    why: 'the wait is over but a webhook no longer trusts the next CA',
    facts: { current: CA_EXPIRING, next: { ...NEXT_VALID, ...waitOver, inEveryBundle: false }, serving: serving() },
    rotation: 'next-untrusted',
    actions: ['restart-next-wait'],
  },
  {
    why: 'every webhook trusts the next CA, and has for the switch delay',
    facts: { current: CA_EXPIRING, next: { ...NEXT_VALID, ...waitOver }, serving: serving() },
    rotation: 'next-trusted',
    previous: 'previous-valid',
    serving: 'serving-other-ca',
    actions: ['promote-next', 'renew-serving'],
  },
  {
    why: 'a next CA that expired before it signed, with a CA that has time left',
    facts: { current: CA_VALID, next: { ...NEXT_EXPIRED, ...waitOver }, serving: serving() },
    rotation: 'next-expired',
    actions: ['drop-next'],
  },
  {
    why: 'a next CA that expired before it signed, with a CA that expires soon',
    facts: { current: CA_EXPIRING, next: { ...NEXT_EXPIRED, ...waitOver }, serving: serving() },
    rotation: 'next-expired-ca-expiring',
    actions: ['drop-next', 'make-next'],
  },
  {
    why: 'an empty Secret',
    facts: {},
    rotation: 'no-ca',
    serving: 'serving-missing',
    actions: ['make-ca', 'renew-serving'],
  },
  {
    why: 'the CA expired with no next CA',
    facts: { current: CA_EXPIRED, serving: serving({ ...days(-20, -1) }) },
    rotation: 'ca-expired',
    serving: 'serving-other-ca',
    actions: ['make-ca', 'renew-serving'],
  },
  {
    why: 'the CA expired while the next one has been trusted for weeks (the injector was down across the switch)',
    facts: {
      current: CA_EXPIRED,
      next: { ...NEXT_VALID, since: NOW - 30 * DAY, inEveryBundle: true },
      serving: serving({ ...days(-20, -1) }),
    },
    rotation: 'ca-expired-next-trusted',
    previous: 'previous-expired',
    serving: 'serving-other-ca',
    actions: ['promote-next', 'drop-previous', 'renew-serving'],
  },
  {
    why: 'the CA expired while the next one is still waiting',
    facts: {
      current: CA_EXPIRED,
      next: { ...NEXT_VALID, since: NOW - 60_000, inEveryBundle: true },
      serving: serving({ ...days(-20, -1) }),
    },
    rotation: 'ca-expired-next-pending',
    previous: 'previous-expired',
    serving: 'serving-other-ca',
    actions: ['promote-next', 'drop-previous', 'renew-serving'],
  },
  {
    why: 'no current CA, but a valid next one',
    facts: { next: { ...NEXT_VALID, ...waitOver, inEveryBundle: false } },
    rotation: 'next-without-ca',
    serving: 'serving-missing',
    actions: ['promote-next', 'renew-serving'],
  },
];

const steady = { current: CA_VALID };

const PREVIOUS_CASES: readonly (Case & { readonly previous: PreviousState })[] = [
  { facts: { ...steady, serving: serving() }, rotation: 'steady', previous: 'no-previous', actions: [] },
  {
    facts: { ...steady, previous: days(-300, 60), serving: serving() },
    rotation: 'steady',
    previous: 'previous-valid',
    actions: [],
  },
  {
    facts: { ...steady, previous: days(-400, -3), serving: serving() },
    rotation: 'steady',
    previous: 'previous-expired',
    actions: ['drop-previous'],
  },
];

const SERVING_CASES: readonly (Case & { readonly serving: ServingState })[] = [
  { facts: steady, rotation: 'steady', serving: 'serving-missing', actions: ['renew-serving'] },
  {
    facts: { ...steady, serving: serving({ signedBy: 'neither' }) },
    rotation: 'steady',
    serving: 'serving-other-ca',
    actions: ['renew-serving'],
  },
  {
    facts: { ...steady, serving: serving({ ...days(-40, -10) }) },
    rotation: 'steady',
    serving: 'serving-outside-validity',
    actions: ['renew-serving'],
  },
  {
    facts: { ...steady, serving: serving({ ...days(-25, 5) }) },
    rotation: 'steady',
    serving: 'serving-expiring',
    actions: ['renew-serving'],
  },
  {
    facts: { ...steady, serving: serving({ keyMatches: false }) },
    rotation: 'steady',
    serving: 'serving-wrong-key',
    actions: ['renew-serving'],
  },
  {
    facts: { ...steady, serving: serving({ dnsNames: ['hook.other.svc', 'hook'] }) },
    rotation: 'steady',
    serving: 'serving-wrong-names',
    actions: ['renew-serving'],
  },
  { facts: { ...steady, serving: serving() }, rotation: 'steady', serving: 'serving-good', actions: [] },
];

const decided = (facts: CertificateFacts) => {
  const decision = decideCertificates(facts, MOMENT);
  return { ...decision, actions: decision.actions.map((planned) => planned.action) };
};

for (const c of ROTATION_CASES)
  test(`rotation ${c.rotation}: ${c.why}`, (t) => {
    const decision = decided(c.facts);
    t.is(decision.rotation, c.rotation);
    if (c.previous !== undefined) t.is(decision.previous, c.previous);
    if (c.serving !== undefined) t.is(decision.serving, c.serving);
    t.deepEqual(decision.actions, c.actions);
  });

for (const c of PREVIOUS_CASES)
  test(`previous CA ${c.previous}`, (t) => {
    const decision = decided(c.facts);
    t.deepEqual([decision.rotation, decision.previous, decision.actions], [c.rotation, c.previous, c.actions]);
  });

for (const c of SERVING_CASES)
  test(`serving certificate ${c.serving}`, (t) => {
    const decision = decided(c.facts);
    t.deepEqual([decision.rotation, decision.serving, decision.actions], [c.rotation, c.serving, c.actions]);
  });

test('every state of each table has a case', (t) => {
  t.deepEqual(ROTATION_CASES.map((c) => c.rotation).sort(), Object.keys(ROTATION_ACTIONS).sort());
  t.deepEqual(PREVIOUS_CASES.map((c) => c.previous).sort(), Object.keys(PREVIOUS_ACTIONS).sort());
  t.deepEqual(SERVING_CASES.map((c) => c.serving).sort(), Object.keys(SERVING_ACTIONS).sort());
});

test('a serving certificate that lasts as long as its CA is not renewed, though it expires soon', (t) => {
  const next = { ...NEXT_VALID, since: NOW - 10 * 60_000, inEveryBundle: true };
  const decision = decided({ current: days(-360, 5), next, serving: serving({ ...days(-25, 5) }) });
  t.deepEqual([decision.rotation, decision.serving, decision.actions], ['next-waiting', 'serving-good', []]);
});

test('the switch delay counts from when the next CA joined the bundle, to the millisecond', (t) => {
  const at = (since: number) =>
    decided({ current: CA_EXPIRING, next: { ...NEXT_VALID, since, inEveryBundle: true }, serving: serving() }).rotation;
  t.is(at(NOW - HOUR + 1), 'next-waiting');
  t.is(at(NOW - HOUR), 'next-trusted');
});

test('a next CA not yet valid (a clock behind) is no next CA to wait for', (t) => {
  const next = { ...days(1, 366), ...waitOver };
  t.is(decided({ current: CA_VALID, next, serving: serving() }).rotation, 'next-expired');
});
