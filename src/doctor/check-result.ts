// One finding of `sfd-sidecar doctor`: what was checked, the verdict, what was seen and how to fix it.

export type Verdict = 'ok' | 'warn' | 'fail';

export interface CheckResult {
  readonly check: string;
  readonly verdict: Verdict;
  readonly detail: string;
  /** What to do about it; absent when there is nothing to do. */
  readonly fix?: string;
}

export const ok = (check: string, detail: string): CheckResult => ({ check, verdict: 'ok', detail });
export const warn = (check: string, detail: string, fix: string): CheckResult => ({
  check,
  verdict: 'warn',
  detail,
  fix,
});
export const fail = (check: string, detail: string, fix: string): CheckResult => ({
  check,
  verdict: 'fail',
  detail,
  fix,
});
