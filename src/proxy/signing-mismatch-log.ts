// When the gateway answers 401 Signature.NotMatch, logs (at warn, at most once per interval) the
// structure of what was signed, so an operator can compare it with what the gateway expects:
// method, uri line, canonical headers, key id, body length and SHA-256, scheme, shape and
// placement. Never the secret or the signature.
import { createHash } from 'node:crypto';
import { createLogLimiter } from '../observability/log-limiter.js';
import type { Logger } from '../observability/logger.js';
import type { SignResult } from '../signing/sign-request.js';
import type { SigningOptions } from '../signing/types.js';

export type MismatchLogger = (method: string, signed: SignResult, accessKeyId: string, options: SigningOptions) => void;

export function createMismatchLogger(logger: Logger, now: () => number, intervalMs = 10_000): MismatchLogger {
  const allowed = createLogLimiter(now, intervalMs);
  return (method, signed, accessKeyId, options) => {
    const suppressed = allowed('mismatch');
    if (suppressed === null) return;
    logger.warn('upstream answered 401 Signature.NotMatch; this is what was signed', {
      method,
      uriLine: signed.uri,
      canonicalHeaders: options.signatureVersion === '2' ? signed.canonicalHeaders : null,
      accessKeyId,
      bodyLength: signed.bodyPosition.length,
      bodySha256: createHash('sha256').update(signed.bodyPosition).digest('hex'),
      scheme: options.signatureVersion,
      shape: options.signatureVersion === '2' ? options.v2StringShape : null,
      placement: options.queryPlacement,
      similarSuppressed: suppressed,
      hint: 'run `sfd-sidecar doctor` to find the form the gateway accepts',
    });
  };
}
