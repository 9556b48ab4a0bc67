// SFD_NOTIFY_TOKEN: the callback path must end with `/<token>`, compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Returns a check of the token part of a path, in time independent of where the first difference is. */
export function createTokenCheck(token: string): (candidate: string) => boolean {
  const expected = digest(token);
  return (candidate) => timingSafeEqual(digest(candidate), expected);
}
