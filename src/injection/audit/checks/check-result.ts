// One line of `sfd-sidecar check`: what was looked at, how it stands, and the command that fixes it.

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'not checked';

export interface CheckResult {
  /** The check's name, as the report groups lines. */
  readonly check: string;
  readonly status: CheckStatus;
  readonly detail: string;
  /** The command (or change) that fixes it, for a warning or a failure. */
  readonly fix?: string;
}

/** The results a check gives when the input holds none of a kind it reads. */
export function notChecked(check: string, kinds: readonly string[], present: ReadonlySet<string>): CheckResult[] {
  const missing = kinds.filter((kind) => !present.has(kind));
  if (missing.length === 0) return [];
  return [
    {
      check,
      status: 'not checked',
      detail: `the input holds no ${missing.join(' or ')}: add ${missing.map(plural).join(',')} to the kubectl get`,
    },
  ];
}

/** The resource name kubectl takes for a kind: lower case and plural. */
const plural = (kind: string): string => kind.toLowerCase().replace(/y$/, 'ie') + 's';
