// Parsers for the profile settings: profile names, the profile header, the allowed list.
import { fail, ok, type Parsed } from './parsers.js';

/** A profile name: the one pattern every reader of one (settings, key store, header, chart) uses. */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const PROFILE_NAME = PROFILE_NAME_PATTERN;
const PROFILE_ALLOWED = 'a profile name: letters, digits, dot, dash and underscore, at most 63';

/** Headers the sidecar sets or drops itself cannot carry a profile choice. */
const RESERVED = new Set([
  'host',
  'authorization',
  'content-type',
  'content-length',
  'connection',
  'x-sfd-date',
  'x-sfd-nonce',
  'x-sfd-signature-version',
  'transfer-encoding',
]);

export function parseProfileName(raw: string): Parsed<string> {
  const text = raw.trim();
  return PROFILE_NAME.test(text) ? ok(text) : fail(PROFILE_ALLOWED);
}

export function parseHeaderName(raw: string): Parsed<string> {
  const text = raw.trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(text) || RESERVED.has(text.toLowerCase())) {
    return fail('an HTTP header name the sidecar does not set itself, e.g. X-SFD-Profile');
  }
  return ok(text);
}

export function parseProfileList(raw: string): Parsed<string[]> {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length > 0 && names.every((name) => PROFILE_NAME.test(name))
    ? ok(names)
    : fail(`a comma-separated list of profile names (${PROFILE_ALLOWED})`);
}
