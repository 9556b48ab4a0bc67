// Where the gateway signs a GET's query (in the body's place or on the uri line), found by asking it.
import type { UpstreamTarget } from '../config/parsers.js';
import type { SigningOptions } from '../signing/types.js';
import { ok, warn, type CheckResult } from './check-result.js';
import type { CANDIDATE_FORMS, ProbeAnswer, Prober } from './signature-probe.js';

/** A GET with a query shows where the gateway signs the query: in the body position or the uri line. */
export async function probePlacement(
  prober: Prober,
  form: (typeof CANDIDATE_FORMS)[number],
  configured: SigningOptions,
  first: ProbeAnswer,
  upstream: UpstreamTarget,
): Promise<{ placement: SigningOptions['queryPlacement']; check: CheckResult }> {
  let ownerId: unknown;
  try {
    ownerId = (JSON.parse(first.body) as { id?: unknown }).id;
  } catch {
    ownerId = undefined;
  }
  const path = typeof ownerId === 'number' ? `/v1.2/customerChildren/${ownerId}` : '/v1.1/customer';
  const results: { placement: SigningOptions['queryPlacement']; answer: ProbeAnswer }[] = [];
  for (const placement of ['body', 'uri'] as const)
    results.push({
      placement,
      answer: await prober.probe({ ...form, queryPlacement: placement }, path, 'page=1&size=1'),
    });
  const accepted = results.filter(
    (r) => r.answer.status !== null && !(r.answer.status === 401 && r.answer.code === 'Signature.NotMatch'),
  );
  const summary = results
    .map((r) => `${r.placement}: ${r.answer.status}${r.answer.code ? ` ${r.answer.code}` : ''}`)
    .join('; ');
  if (accepted.length === 1)
    return {
      placement: accepted[0]!.placement,
      check: ok(
        'query placement',
        `GET ${upstream.pathPrefix}${path}?page=1&size=1 accepted with ${accepted[0]!.placement} (${summary})`,
      ),
    };
  if (accepted.length === 2)
    return {
      placement: configured.queryPlacement,
      check: ok(
        'query placement',
        `both placements accepted for this read (${summary}); keeping ${configured.queryPlacement}`,
      ),
    };
  return {
    placement: configured.queryPlacement,
    check: warn(
      'query placement',
      `neither placement was accepted for a GET with a query (${summary})`,
      'reads with a query may fail; compare with `sfd-sidecar sign` and a known-good client',
    ),
  };
}
