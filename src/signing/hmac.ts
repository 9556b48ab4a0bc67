// HMAC-SHA256 over the string to sign, lowercase hex.
import { createHmac, type KeyObject } from 'node:crypto';

/** Signs `prefix` (a byte string) followed by the raw body-position bytes. */
export function computeSignature(secret: KeyObject, prefix: string, bodyPosition: Buffer): string {
  return createHmac('sha256', secret).update(prefix, 'latin1').update(bodyPosition).digest('hex');
}
