// A notification's body, checked as the relay hands it on: JSON, a valid event, and an id that can
// travel as the application's Idempotency-Key header.
import { parseNotification, type ParsedNotification } from './notifications.js';

/**
 * An id the relay can hand on as the Idempotency-Key header: printable ASCII, no space at either end.
 * Node refuses a header value with a control character (CR, LF, NUL) or one beyond Latin-1, and such an
 * id (nothing else rules it out) would throw out of the handler.
 */
const HEADER_SAFE_ID = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export function checkNotification(body: Buffer): ParsedNotification {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, problems: ['(body): not valid JSON'] };
  }
  const parsed = parseNotification(value);
  if (parsed.ok && !HEADER_SAFE_ID.test(parsed.notification.id))
    return {
      ok: false,
      id: parsed.notification.id,
      problems: [
        'id: must be printable ASCII without spaces at either end; the relay hands it to the application as ' +
          'the Idempotency-Key header',
      ],
    };
  return parsed;
}
