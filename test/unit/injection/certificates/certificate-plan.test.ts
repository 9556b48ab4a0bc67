// The certificate plan with real keys, no API server: what the Secret holds afterwards in the states
// where the old CA cannot sign any more, and that a plan with nothing due changes nothing.
import { X509Certificate } from 'node:crypto';
import test from 'ava';
import {
  issueCa,
  issueServingCertificate,
  signedBy,
} from '../../../../src/injection/certificates/certificate-issuer.js';
import {
  DEFAULT_CERTIFICATE_POLICY,
  planCertificates,
  type PlanInput,
} from '../../../../src/injection/certificates/certificate-plan.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2030, 0, 15);
const NAMES = ['hook.sfd-system.svc', 'hook'];
const window = (fromDays: number, toDays: number) => ({
  notBefore: NOW + fromDays * DAY,
  notAfter: NOW + toDays * DAY,
});
const input = (trusted: readonly string[]): PlanInput => ({
  now: NOW,
  dnsNames: NAMES,
  trusted,
  policy: DEFAULT_CERTIFICATE_POLICY,
});
const certsIn = (bundle: string) => bundle.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];

test('the CA expired while the next one was trusted for weeks: the next CA signs, no new CA is made', async (t) => {
  const current = await issueCa('old', window(-400, -1));
  const next = await issueCa('next', window(-30, 335));
  const serving = await issueServingCertificate(current, NAMES, window(-20, -1));
  const bundle = current.cert + next.cert;
  const plan = await planCertificates(
    { current, next: { ...next, since: NOW - 30 * DAY }, serving },
    input([bundle, bundle]),
  );
  t.is(plan.certificates.current?.cert, next.cert, 'the trusted next CA signs');
  t.is(plan.certificates.next, undefined);
  t.is(plan.certificates.previous, undefined, 'the expired CA is not kept');
  t.deepEqual(certsIn(plan.bundle), certsIn(next.cert), 'the bundle holds the CA every webhook already trusts');
  t.true(signedBy(plan.certificates.serving!.cert, next.cert));
  t.true(new X509Certificate(plan.certificates.serving!.cert).checkHost(NAMES[0]!) !== undefined);
});

test('the CA expired and the next one still waits: it signs all the same, being ahead of a new CA', async (t) => {
  const current = await issueCa('old', window(-400, -1));
  const next = await issueCa('next', window(0, 365));
  const plan = await planCertificates(
    { current, next: { ...next, since: NOW - 60_000 } },
    input([current.cert + next.cert, current.cert + next.cert]),
  );
  t.is(plan.certificates.current?.cert, next.cert);
  t.true(signedBy(plan.certificates.serving!.cert, next.cert));
});

test('the CA expired with no next one: a new CA signs, and the expired next and previous leave', async (t) => {
  const current = await issueCa('old', window(-400, -1));
  const next = await issueCa('next', window(-500, -2));
  const plan = await planCertificates(
    { current, next: { ...next, since: NOW - 200 * DAY }, previous: current.cert },
    input([current.cert, current.cert]),
  );
  t.not(plan.certificates.current?.cert, current.cert);
  t.not(plan.certificates.current?.cert, next.cert);
  t.is(plan.certificates.next, undefined);
  t.is(plan.certificates.previous, undefined);
  t.true(signedBy(plan.certificates.serving!.cert, plan.certificates.current!.cert));
  t.deepEqual(certsIn(plan.bundle), certsIn(plan.certificates.current!.cert));
});

test('nothing due: the plan changes nothing and keeps the bundle', async (t) => {
  const current = await issueCa('ca', window(-10, 355));
  const serving = await issueServingCertificate(current, NAMES, window(-1, 29));
  const plan = await planCertificates({ current, serving }, input([current.cert, current.cert]));
  t.deepEqual(plan.changes, []);
  t.deepEqual(plan.certificates, { current, serving, next: undefined, previous: undefined });
  t.deepEqual(certsIn(plan.bundle), certsIn(current.cert));
});
