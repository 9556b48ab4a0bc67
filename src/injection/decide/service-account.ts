// The service account a pod runs as, as the API server decides it: `serviceAccountName`, else the
// older `serviceAccount` it still accepts as an alias (an empty name counts as none), else `default`.
/** The service account of a pod that names none. */
export const DEFAULT_SERVICE_ACCOUNT = 'default';

export function serviceAccountOf(spec: { serviceAccountName?: unknown; serviceAccount?: unknown } | undefined): string {
  for (const named of [spec?.serviceAccountName, spec?.serviceAccount])
    if (typeof named === 'string' && named !== '') return named;
  return DEFAULT_SERVICE_ACCOUNT;
}
