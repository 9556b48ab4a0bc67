// The gateway's documented error codes and the emulator's one own code.

export interface GatewayError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

const e = (status: number, code: string, message: string): GatewayError => ({ status, code, message });

export const GATEWAY_ERRORS = {
  badRequest: e(400, 'Request.BadRequest', 'The request is malformed.'),
  customerIdInvalid: e(400, 'CustomerId.Invalid', 'The customer id is invalid.'),
  authorizationFormat: e(400, 'AuthorizationFormat.Invalid', 'The Authorization header is missing or malformed.'),
  accessKeyId: e(400, 'AccessKeyId.Invalid', 'The access key id is unknown.'),
  timestamp: e(400, 'Timestamp.Invalid', 'X-SFD-Date is missing or malformed.'),
  nonce: e(400, 'Nonce.Invalid', 'X-SFD-Nonce must be 5 to 18 digits.'),
  uri: e(400, 'URI.Invalid', 'The requested resource does not exist.'),
  signatureVersion: e(400, 'Signature.Version.Invalid', 'X-SFD-Signature-Version is not supported.'),
  expired: e(400, 'Signature.Expired', 'X-SFD-Date is more than one hour from the gateway clock.'),
  method: e(400, 'Method.Invalid', 'The method is not allowed on this resource.'),
  customerIdEmpty: e(400, 'InvalidCustomer.IdEmpty', 'Customer id is empty or invalid.'),
  serviceIdIncorrect: e(400, 'InvalidService.IdIncorrect', 'Service id is empty or invalid.'),
  serviceIdPermission: e(400, 'ServiceId.IdPermission', 'Service id cannot be found or is unknown.'),
  timeWindow: e(400, 'InvalidRateLimit.TimeWindow', 'timeWindow must be a positive integer.'),
  requestLimit: e(400, 'InvalidRateLimit.RequestLimit', 'requestLimit must be a positive integer.'),
  signatureNotMatch: e(401, 'Signature.NotMatch', 'The signature does not match.'),
  forbidden: e(403, 'Permission.Forbidden', 'The access key may not read this resource.'),
  /** The emulator's own: the gateway documents no code for a repeated nonce. */
  nonceReplayed: e(401, 'Emulator.NonceReplayed', 'This nonce was already used within the hour (emulator code).'),
} as const;

export const GATEWAY_CONTENT_TYPE = 'application/json;charset=UTF-8';
