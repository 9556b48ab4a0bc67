// Which signature form the gateway accepts, found by asking it: one signed read per candidate form,
// then a read with a query for where the query is signed. The gateway's error codes tell a refused
// signature from a request refused before its signature was checked.
import type { UpstreamTarget } from '../config/parsers.js';
import type { AccessKey, SigningOptions } from '../signing/types.js';
import { fail, ok, type CheckResult } from './check-result.js';
import { clockCheck } from './clock-check.js';
import { probePlacement } from './probe-placement.js';
import { CANDIDATE_FORMS, describeForm, type ProbeAnswer, type Prober } from './signature-probe.js';
import { SETTINGS } from '../config/settings.js';

/** Codes the gateway raises before it checks the signature: a probe that gets one proves nothing about the form. */
const BEFORE_SIGNATURE = new Set([
  'AuthorizationFormat.Invalid',
  'AccessKeyId.Invalid',
  'AccessCredential.Invalid',
  'Timestamp.Invalid',
  'Signature.Expired',
  'Nonce.Invalid',
  'Signature.Version.Invalid',
]);

/**
 * @param secretOddity whitespace at the edges of the secret, the likeliest cause when the gateway refuses every form
 */
export async function probeForms(
  prober: Prober,
  configured: SigningOptions,
  upstream: UpstreamTarget,
  key: AccessKey,
  checks: CheckResult[],
  secretOddity: string | undefined,
): Promise<SigningOptions | null> {
  const answers: { form: (typeof CANDIDATE_FORMS)[number]; answer: ProbeAnswer }[] = [];
  for (const form of CANDIDATE_FORMS)
    answers.push({
      form,
      answer: await prober.probe({ ...form, queryPlacement: configured.queryPlacement }, '/v1.1/customer', null),
    });

  const skew = answers.map((a) => a.answer.skewMs).find((s) => s !== null) ?? null;
  checks.push(clockCheck(skew));
  const unreachable = answers.find((a) => a.answer.status === null);
  if (unreachable) {
    checks.push(
      fail(
        'signature form',
        `the probe got no answer (${unreachable.answer.error ?? 'error'})`,
        'see the network checks above',
      ),
    );
    return null;
  }
  const before = answers.filter((a) => a.answer.code !== null && BEFORE_SIGNATURE.has(a.answer.code));
  if (before.length === answers.length) {
    const code = before[0]!.answer.code!;
    checks.push(
      fail(
        'signature form',
        `every probe was refused before the signature was checked: ${before[0]!.answer.status} ${code}`,
        fixFor(code, key.accessKeyId),
      ),
    );
    return null;
  }
  const accepted = answers.filter(
    (a) =>
      !(a.answer.status === 401 && a.answer.code === 'Signature.NotMatch') &&
      !(a.answer.code !== null && BEFORE_SIGNATURE.has(a.answer.code)),
  );
  const summary = answers
    .map((a) => `${describeForm(a.form)}: ${a.answer.status}${a.answer.code ? ` ${a.answer.code}` : ''}`)
    .join('; ');
  if (accepted.length === 0) {
    const fix = secretOddity
      ? `likely the secret itself: ${secretOddity}; remove the whitespace (or the secret does not belong to ` +
        `${key.accessKeyId})`
      : `the secret does not belong to ${key.accessKeyId}, or the gateway uses a form not listed here`;
    checks.push(fail('signature form', `the gateway refused every form (${summary})`, fix));
    return null;
  }
  // A gateway may accept several forms (it picks the scheme from X-SFD-Signature-Version): the
  // configured one, when among them, is kept rather than the first in the list.
  const chosen = accepted.find((a) => sameForm(a.form, configured)) ?? accepted[0]!;
  const form = chosen.form;
  const placement = await probePlacement(prober, form, configured, chosen.answer, upstream);
  const recommendation: SigningOptions = { ...form, queryPlacement: placement.placement };
  checks.push(
    ok('signature form', `accepted: ${accepted.map((a) => describeForm(a.form)).join(', ')} (all probes: ${summary})`),
  );
  checks.push(placement.check);
  checks.push(settingsCheck(recommendation, configured));
  return recommendation;
}

/** Whether the configured form is the one the gateway accepts, and the settings that make it so. */
function settingsCheck(recommendation: SigningOptions, configured: SigningOptions): CheckResult {
  const matches = sameForm(recommendation, configured) && configured.queryPlacement === recommendation.queryPlacement;
  const settings =
    `${SETTINGS.signatureVersion.env}=${recommendation.signatureVersion}` +
    (recommendation.signatureVersion === '2' ? ` ${SETTINGS.v2StringShape.env}=${recommendation.v2StringShape}` : '') +
    ` ${SETTINGS.queryPlacement.env}=${recommendation.queryPlacement}`;
  return matches
    ? ok('settings', `the configured form (${describeForm(configured)}) is accepted`)
    : fail(
        'settings',
        `the configured form (${describeForm(configured)}) is not the one the gateway accepts`,
        `set ${settings}`,
      );
}

/** The same scheme and, for scheme 2, the same shape (scheme 1 has no shapes). */
function sameForm(a: Omit<SigningOptions, 'queryPlacement'>, b: Omit<SigningOptions, 'queryPlacement'>): boolean {
  return (
    a.signatureVersion === b.signatureVersion && (a.signatureVersion === '1' || a.v2StringShape === b.v2StringShape)
  );
}

function fixFor(code: string, keyId: string): string {
  switch (code) {
    case 'AccessKeyId.Invalid':
    case 'AccessCredential.Invalid':
      return (
        `the gateway does not know ${keyId} (or it is revoked): check ${SETTINGS.accessKeyId.env} or the key store ` +
        `against the portal`
      );
    case 'Signature.Expired':
    case 'Timestamp.Invalid':
      return "the gateway refuses this machine's date: fix time synchronisation (NTP) on the node";
    default:
      return `the gateway answered ${code}; see docs/troubleshooting.md`;
  }
}
