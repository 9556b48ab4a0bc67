// The gateway's operations this product knows by name: the bounded `operation` label of the metrics
// (never a raw path), and names a profile may be limited to. Paths are the caller's, as forwarded and
// signed, less the upstream's path prefix.

export const OPERATIONS = [
  'getCustomer',
  'getCustomerChildren',
  'getRateLimit',
  'deleteRateLimit',
  'upsertRateLimit',
  'other',
] as const;
export type Operation = (typeof OPERATIONS)[number];

const CUSTOMER = /^\/v1\.[12]\/customer(?:\/\d+)?\/?$/;
const CHILDREN = /^\/v1\.2\/customerChildren\/\d+\/?$/;
const RATE_LIMIT = /^\/cdn\/v1\.0\/services\/\d+\/rateLimit\/?$/;

export function operationOf(method: string, path: string): Operation {
  const read = method === 'GET' || method === 'HEAD';
  if (read && CUSTOMER.test(path)) return 'getCustomer';
  if (read && CHILDREN.test(path)) return 'getCustomerChildren';
  if (RATE_LIMIT.test(path)) {
    if (read) return 'getRateLimit';
    if (method === 'DELETE') return 'deleteRateLimit';
    if (method === 'POST') return 'upsertRateLimit';
  }
  return 'other';
}

/** What each named operation is, in the words of the docs (`ID` an all-digit segment; a trailing `/` is allowed). */
export const NAMED_OPERATION_ROUTES: Readonly<Record<Exclude<Operation, 'other'>, string>> = {
  getCustomer: 'GET or HEAD `/v1.1/customer`, `/v1.2/customer`, `/v1.1/customer/ID`, `/v1.2/customer/ID`',
  getCustomerChildren: 'GET or HEAD `/v1.2/customerChildren/ID`',
  getRateLimit: 'GET or HEAD `/cdn/v1.0/services/ID/rateLimit`',
  deleteRateLimit: 'DELETE `/cdn/v1.0/services/ID/rateLimit`',
  upsertRateLimit: 'POST `/cdn/v1.0/services/ID/rateLimit`',
};

/** The operations a profile may be limited to by name: every known one but `other`. */
export type NamedOperation = Exclude<Operation, 'other'>;
export const NAMED_OPERATIONS: readonly NamedOperation[] = OPERATIONS.filter(
  (name): name is NamedOperation => name !== 'other',
);
