// Parsers for the notification relay's settings.
import { parseCidrList } from './cidr-list.js';
import { fail, failUrl, ok, type Parsed } from '../../config/parsers.js';

export const parseNotifyPath = (raw: string): Parsed<string> => {
  const text = raw.trim().replace(/\/+$/, '');
  return /^\/[A-Za-z0-9._~\-/]*$/.test(text) && text !== ''
    ? ok(text)
    : fail('a path starting with /, e.g. /notifications');
};

export const parseForwardUrl = (raw: string): Parsed<URL> => {
  try {
    const url = new URL(raw.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return ok(url);
  } catch {
    // reported below
  }
  return failUrl('an http:// or https:// URL where the application listens, e.g. http://127.0.0.1:3000/hooks/sfd', raw);
};

export const parseNotifyToken = (raw: string): Parsed<string> =>
  /^[A-Za-z0-9._~-]{16,256}$/.test(raw.trim())
    ? ok(raw.trim())
    : fail('16 to 256 URL-safe characters (letters, digits, . _ ~ -)');

export const parseCidrs = (raw: string): Parsed<string> => {
  try {
    parseCidrList(raw);
    return ok(raw);
  } catch (error) {
    return fail(
      `a comma-separated list of addresses or CIDR ranges, e.g. 203.0.113.0/24, 2001:db8::/32 (bad entry: ` +
        `${(error as Error).message})`,
    );
  }
};
