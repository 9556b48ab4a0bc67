// The bounded `error_code` label: a documented gateway error code by name, any other as `other`.

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
