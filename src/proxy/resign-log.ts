// When the gateway refuses a key and the request is signed again with another key of the profile,
// says so at warn once the re-signed attempt has its answer, at most once per interval for each profile
// and refused key: during a rotation the gateway may refuse the new key for every request until it
// learns it, and the log must name that state without one line per request. The line names the first
// refusal's code and what it means, and the re-signed attempt's outcome: when both are refused, the
// first refusal is the cause the caller is answered with. sfd_resign_retries_total counts every re-sign.
import { createLogLimiter } from '../observability/log-limiter.js';
import type { Logger } from '../observability/logger.js';
import { keyRefusalHint } from './key-refusals.js';

export interface Resign {
  readonly profile: string;
  readonly refusedAccessKeyId: string;
  readonly retryAccessKeyId: string;
  /** The first refusal's code. */
  readonly upstreamCode: string;
  /** The re-signed attempt's status, or null when no answer came. */
  readonly retryStatus: number | null;
  /** The re-signed attempt's code when the gateway refused its key too, else null. */
  readonly retryUpstreamCode: string | null;
}

export type ResignLogger = (resign: Resign) => void;

/** The warn line's event, as the rotation runbook quotes it. */
export const RESIGN_EVENT = 'upstream refused the key; re-signing once with another key of the profile';

export function createResignLogger(logger: Logger, now: () => number, intervalMs = 10_000): ResignLogger {
  const allowed = createLogLimiter(now, intervalMs);
  return (resign) => {
    const suppressed = allowed(`${resign.profile}\n${resign.refusedAccessKeyId}`);
    if (suppressed === null) return;
    logger.warn(RESIGN_EVENT, { ...resign, similarSuppressed: suppressed, hint: keyRefusalHint(resign.upstreamCode) });
  };
}
