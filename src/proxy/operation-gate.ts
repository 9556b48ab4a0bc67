// The operations gate of the signing path: before anything is signed, the call is judged against the
// limits on its profile (the key store's, then the narrowing the injection wrote), on the path as it
// will be forwarded and signed less the upstream's prefix. A call outside an enforced limit is never
// signed nor forwarded; outside a dry run it is signed, counted and logged (at most once per interval
// for each profile and operation). Where any limit applies, a header that overrides the method or the
// path (in any spelling) is refused: a gateway that honours one would run another call than the one
// judged here.
import { createLogLimiter } from '../observability/log-limiter.js';
import type { Logger } from '../observability/logger.js';
import type { Operation } from '../operations/named-operations.js';
import { judgeOperation, type OperationLimit, type OperationVerdict } from '../operations/operation-limit.js';

/**
 * Headers that ask a gateway or framework to treat the request as another call, by name with `-` for
 * `_` (behind CGI and FastCGI both become `_`, so `X_HTTP_METHOD_OVERRIDE` reaches such a gateway as the
 * same variable as `X-HTTP-Method-Override`), and what of the call each changes. IIS's URL Rewrite,
 * Symfony and some nginx configurations route by `X-Original-URL` or `X-Rewrite-URL` instead of the path.
 */
const OVERRIDE_HEADERS: ReadonlyMap<string, 'method' | 'path'> = new Map([
  ['x-http-method-override', 'method'],
  ['x-http-method', 'method'],
  ['x-method-override', 'method'],
  ['x-original-url', 'path'],
  ['x-rewrite-url', 'path'],
]);

/** The first header, in whatever spelling, that overrides the method or the path; undefined when none does. */
function overrideHeader(headers: GateInput['headers']): { name: string; changes: 'method' | 'path' } | undefined {
  for (const name in headers) {
    const changes =
      headers[name] === undefined ? undefined : OVERRIDE_HEADERS.get(name.toLowerCase().replaceAll('_', '-'));
    if (changes !== undefined) return { name, changes };
  }
  return undefined;
}

export interface GateInput {
  readonly profile: string;
  readonly operation: Operation;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly limits: readonly (OperationLimit | null)[];
}

/** The verdict, and for a refusal the reason the caller and the log are given. */
export type GateVerdict =
  | { readonly verdict: Exclude<OperationVerdict, 'enforced'> }
  | { readonly verdict: 'enforced'; readonly reason: string };

export type OperationGate = (input: GateInput) => GateVerdict;

export function createOperationGate(logger: Logger, now: () => number, intervalMs = 10_000): OperationGate {
  const allowed = createLogLimiter(now, intervalMs);
  return ({ profile, operation, method, path, headers, limits }) => {
    if (limits.every((limit) => limit === null)) return { verdict: 'allowed' };
    const override = overrideHeader(headers);
    if (override !== undefined) {
      const { name, changes } = override;
      return {
        verdict: 'enforced',
        reason: `profile ${profile} has limited operations, and ${name} would change the ${changes} judged`,
      };
    }
    const verdict = judgeOperation(limits, method, path);
    if (verdict === 'enforced')
      return { verdict, reason: `operation ${operation} (${method} ${path}) is not one profile ${profile} may sign` };
    if (verdict === 'dry-run') {
      const suppressed = allowed(`${profile}\n${operation}`);
      if (suppressed !== null)
        logger.warn("operation outside the profile's limit signed: the limit is a dry run", {
          profile,
          operation,
          method,
          path,
          similarSuppressed: suppressed,
        });
    }
    return { verdict };
  };
}
