// The gateway's clock against this one, from its Date header: the gateway refuses dates an hour away.
import { fail, ok, warn, type CheckResult } from './check-result.js';

export function clockCheck(skewMs: number | null): CheckResult {
  if (skewMs === null)
    return warn(
      'clock',
      'the gateway sent no Date header, so the clock skew is unknown',
      'make sure the node synchronises its clock (NTP)',
    );
  const minutes = Math.abs(skewMs) / 60_000;
  const detail =
    `the gateway's clock is ${skewMs >= 0 ? 'ahead of' : 'behind'} this one by ` +
    `${(Math.abs(skewMs) / 1000).toFixed(1)} s (HTTP Date has 1 s resolution)`;
  if (minutes >= 50)
    return fail(
      'clock',
      `${detail}: the gateway refuses dates an hour away`,
      'fix time synchronisation (NTP) on the node',
    );
  if (minutes >= 5)
    return warn(
      'clock',
      `${detail}: drifting toward the gateway's one-hour limit`,
      'fix time synchronisation (NTP) on the node',
    );
  return ok('clock', detail);
}
