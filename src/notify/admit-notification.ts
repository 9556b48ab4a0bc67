// Whether a notification may come in, from its request head alone: the path (and token), the method,
// the source address, the service's header and the content type. Checked before a byte of the body is
// read, so that a caller the relay would refuse holds nothing.
import type { IncomingMessage } from 'node:http';
import type { SourceFilter } from './settings/cidr-list.js';
import { SIDECAR_ERRORS, type SidecarErrorSpec } from '../errors.js';
import {
  NOTIFICATION_FROM_HEADER,
  NOTIFICATION_FROM_HEADER_OLD,
  NOTIFICATION_FROM_VALUE,
} from './notification-header.js';
import { NOTIFY_SETTINGS } from './settings/notify-settings.js';

export interface AdmissionRules {
  /** SFD_NOTIFY_PATH, without a trailing slash. */
  readonly path: string;
  /** Checks the `/<token>` after the path; null when SFD_NOTIFY_TOKEN is unset. */
  readonly tokenCheck: ((candidate: string) => boolean) | null;
  readonly sourceFilter: SourceFilter | null;
  /** Require `X-SFD-Notification-From: LLS` (or the spelling `X-Notification-from`). */
  readonly requireHeader: boolean;
}

/** Why a notification is refused: the answer, the reason for the log line and any extra answer headers. */
export interface Refusal {
  readonly spec: SidecarErrorSpec;
  readonly reason: string;
  readonly headers?: Record<string, string>;
}

/** The one method the relay takes (its 405s say so in `Allow`). */
export const RELAY_METHODS = 'POST';
const FROM_HEADERS = [NOTIFICATION_FROM_HEADER, NOTIFICATION_FROM_HEADER_OLD].map((name) => name.toLowerCase());
const JSON_MEDIA_TYPE = /^application\/([a-z.+-]*\+)?json\s*(;|$)/i;

/** The refusal of a notification whose head breaks a rule; null when it may come in. */
export function admissionRefusal(incoming: IncomingMessage, rules: AdmissionRules): Refusal | null {
  const pathname = (incoming.url ?? '').split('?')[0] ?? '';
  if (pathname !== rules.path && !pathname.startsWith(`${rules.path}/`))
    return { spec: SIDECAR_ERRORS.NotFound, reason: 'unknown path' };
  const rest = pathname.slice(rules.path.length);
  const pathAllowed = rules.tokenCheck
    ? rest !== '' && rules.tokenCheck(rest.replace(/^\//, ''))
    : rest === '' || rest === '/';
  if (!pathAllowed) {
    const spec = rules.tokenCheck ? SIDECAR_ERRORS.NotificationForbidden : SIDECAR_ERRORS.NotFound;
    return { spec, reason: 'wrong token or path' };
  }
  if (incoming.method !== RELAY_METHODS)
    return {
      spec: SIDECAR_ERRORS.MethodNotAllowed,
      reason: `method ${incoming.method ?? ''}`,
      headers: { Allow: RELAY_METHODS },
    };
  if (rules.sourceFilter && !rules.sourceFilter(incoming.socket.remoteAddress))
    return {
      spec: SIDECAR_ERRORS.NotificationForbidden,
      reason:
        `source ${incoming.socket.remoteAddress ?? 'unknown'} is outside ` + NOTIFY_SETTINGS.notifyAllowedCidrs.env,
    };
  if (rules.requireHeader && !FROM_HEADERS.some((name) => incoming.headers[name] === NOTIFICATION_FROM_VALUE))
    return {
      spec: SIDECAR_ERRORS.NotificationForbidden,
      reason: `no ${NOTIFICATION_FROM_HEADER}: ${NOTIFICATION_FROM_VALUE} header`,
    };
  const contentType = incoming.headers['content-type'] ?? '';
  if (!JSON_MEDIA_TYPE.test(contentType))
    return { spec: SIDECAR_ERRORS.UnsupportedMediaType, reason: `content type ${contentType}` };
  return null;
}
