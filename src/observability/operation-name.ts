// The bounded `operation` label: a name from the gateway's known routes, never a raw
// path. Paths are the caller's, before any upstream prefix.

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

/** Upstream error codes counted by name; others are `other`. */
export const DOCUMENTED_ERROR_CODES = new Set([
  'Request.BadRequest',
  'CustomerId.Invalid',
  'ProductId.Invalid',
  'AuthorizationFormat.Invalid',
  'AccessKeyId.Invalid',
  'Timestamp.Invalid',
  'Nonce.Invalid',
  'URI.Invalid',
  'Signature.Version.Invalid',
  'Signature.Expired',
  'Method.Invalid',
  'Signature.NotMatch',
  'AccessCredential.Invalid',
  'Permission.Forbidden',
  'InvalidCustomer.IdEmpty',
  'InvalidService.IdIncorrect',
  'ServiceId.IdPermission',
  'InvalidRateLimit.TimeWindow',
  'InvalidRateLimit.RequestLimit',
]);

/** The `error_code` label: a documented code, `other` for any other code, `none` when the body has none. */
export function errorCodeLabel(code: string | null): string {
  if (code === null) return 'none';
  return DOCUMENTED_ERROR_CODES.has(code) ? code : 'other';
}
