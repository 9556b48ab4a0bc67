// The notification relay: accept the service's callback only from where it may come, check
// it against the specification, hand it to the application with an Idempotency-Key, and acknowledge
// the service only once the application has accepted it. Invalid events are refused with every problem
// listed and kept in the dead-letter file (503 when it cannot keep them); a repeat of a delivered id is
// acknowledged without delivery.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SidecarError, SIDECAR_ERRORS, type SidecarErrorSpec } from '../errors.js';
import type { Logger } from '../observability/logger.js';
import type { NotifyObserver, NotifyResult } from '../observability/notify-observer.js';
import { readBody } from '../http/read-body.js';
import { errorAnswer, JSON_CONTENT_TYPE, newTraceId, sendErrorAnswer } from '../http/error-answer.js';
import type { DeadLetterWriter } from './dead-letter.js';
import type { DeliveredIds } from './delivered-ids.js';
import type { AppDelivery, DeliveryResult } from './deliver-to-app.js';
import { parseNotification, type Notification } from './notifications.js';
import type { SourceFilter } from '../config/cidr-list.js';

export interface NotifyRelayDeps {
  /** SFD_NOTIFY_PATH, without a trailing slash. */
  readonly path: string;
  /** Checks the `/<token>` after the path; null when SFD_NOTIFY_TOKEN is unset. */
  readonly tokenCheck: ((candidate: string) => boolean) | null;
  readonly sourceFilter: SourceFilter | null;
  /** Require `X-SFD-Notification-From: LLS` (or the spelling `X-Notification-from`). */
  readonly requireHeader: boolean;
  readonly maxBodyBytes: number;
  /** Notifications handled at once, from the body's last byte to the answer (SFD_NOTIFY_MAX_INFLIGHT). */
  readonly maxInflight: number;
  /** SFD_CLIENT_MIN_BODY_BYTES_PER_SECOND: slower bodies are cut off (408). */
  readonly minBodyBytesPerSecond: number;
  readonly delivery: AppDelivery;
  readonly deliveredIds: DeliveredIds;
  readonly deadLetter: DeadLetterWriter | null;
  readonly logger: Logger;
  readonly observer: NotifyObserver;
  readonly now: () => number;
}

export type NotificationHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

const FROM_HEADERS = ['x-sfd-notification-from', 'x-notification-from'];
/**
 * An id the relay can hand on as the Idempotency-Key header: printable ASCII, no space at either end.
 * Node refuses a header value with a control character (CR, LF, NUL) or one beyond Latin-1, and such an
 * id (nothing else rules it out) would throw out of the handler.
 */
const HEADER_SAFE_ID = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
/** The one method the relay takes (its 405s say so in `Allow`). */
export const RELAY_METHODS = 'POST';

export function createNotificationHandler(deps: NotifyRelayDeps): NotificationHandler {
  const inFlight = new Map<string, Promise<DeliveryResult>>();
  /** Notifications whose body has arrived: being checked or delivered. */
  let handling = 0;
  const { logger, observer } = deps;

  const answer = (
    outgoing: ServerResponse,
    status: number,
    body: unknown,
    extra: Record<string, string> = {},
  ): void => {
    const text = JSON.stringify(body);
    outgoing.writeHead(status, {
      'Content-Type': JSON_CONTENT_TYPE,
      'Content-Length': Buffer.byteLength(text),
      ...extra,
    });
    outgoing.end(text);
  };
  /** A catalog error with a trace id of the sidecar's own; returns it for the log line. */
  const answerError = (
    outgoing: ServerResponse,
    spec: SidecarErrorSpec,
    headers: Record<string, string> = {},
  ): string => {
    const answered = errorAnswer(spec, { headers });
    sendErrorAnswer(outgoing, answered);
    return answered.traceId;
  };
  const refuse = (
    outgoing: ServerResponse,
    spec: SidecarErrorSpec,
    reason: string,
    extra: Record<string, string> = {},
  ): void => {
    observer.notification('none', 'none', 'refused');
    const sidecarTraceId = answerError(outgoing, spec, extra);
    logger.warn('notification refused', { code: spec.code, reason, sidecarTraceId });
  };

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const url = incoming.url ?? '';
    const pathname = url.split('?')[0] ?? '';
    if (pathname !== deps.path && !pathname.startsWith(`${deps.path}/`))
      return refuse(outgoing, SIDECAR_ERRORS.NotFound, 'unknown path');
    const rest = pathname.slice(deps.path.length);
    if (deps.tokenCheck ? !deps.tokenCheck(rest.replace(/^\//, '')) || rest === '' : rest !== '' && rest !== '/') {
      return refuse(
        outgoing,
        deps.tokenCheck ? SIDECAR_ERRORS.NotificationForbidden : SIDECAR_ERRORS.NotFound,
        'wrong token or path',
      );
    }
    if (incoming.method !== 'POST')
      return refuse(outgoing, SIDECAR_ERRORS.MethodNotAllowed, `method ${incoming.method ?? ''}`, {
        Allow: RELAY_METHODS,
      });
    if (deps.sourceFilter && !deps.sourceFilter(incoming.socket.remoteAddress)) {
      return refuse(
        outgoing,
        SIDECAR_ERRORS.NotificationForbidden,
        `source ${incoming.socket.remoteAddress ?? 'unknown'} is outside SFD_NOTIFY_ALLOWED_CIDRS`,
      );
    }
    if (deps.requireHeader && !FROM_HEADERS.some((name) => incoming.headers[name] === 'LLS')) {
      return refuse(outgoing, SIDECAR_ERRORS.NotificationForbidden, 'no X-SFD-Notification-From: LLS header');
    }
    const contentType = incoming.headers['content-type'] ?? '';
    if (!/^application\/([a-z.+-]*\+)?json\s*(;|$)/i.test(contentType))
      return refuse(outgoing, SIDECAR_ERRORS.UnsupportedMediaType, `content type ${contentType}`);
    // Refused before its body is read when the relay is full: each notification in hand holds its body
    // and parsed JSON. It is in hand once its body has arrived, so that callers sending slowly hold no
    // place (the minimum rate cuts them off).
    const full = (): boolean => handling >= deps.maxInflight;
    const overloaded = (): void =>
      refuse(outgoing, SIDECAR_ERRORS.Overloaded, `${handling} notifications in hand (SFD_NOTIFY_MAX_INFLIGHT)`);
    if (full()) return overloaded();
    const body = await readBody(incoming, outgoing, {
      maxBytes: deps.maxBodyBytes,
      minBytesPerSecond: deps.minBodyBytesPerSecond,
    });
    if (full()) return overloaded();
    handling += 1;
    outgoing.on('close', () => (handling -= 1));

    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return invalid(outgoing, incoming, body, null, ['(body): not valid JSON']);
    }
    const parsed = parseNotification(value);
    if (!parsed.ok) return invalid(outgoing, incoming, body, parsed.id ?? null, parsed.problems);
    const event = parsed.notification;
    if (!HEADER_SAFE_ID.test(event.id)) {
      return invalid(outgoing, incoming, body, event.id, [
        'id: must be printable ASCII without spaces at either end; the relay hands it to the application as ' +
          'the Idempotency-Key header',
      ]);
    }
    const [type, status] = labelsOf(event);

    if (deps.deliveredIds.has(event.id)) {
      observer.notification(type, status, 'duplicate');
      logger.info('notification already delivered; acknowledged again', { notificationId: event.id, type: event.type });
      return answer(outgoing, 200, { status: 'duplicate', id: event.id });
    }
    let delivery = inFlight.get(event.id);
    const first = delivery === undefined;
    if (!delivery) {
      const started = performance.now();
      delivery = deps.delivery.deliver(body, incoming.rawHeaders, event.id).then((result) => {
        observer.deliveryTook((performance.now() - started) / 1000);
        if (result.delivered) deps.deliveredIds.add(event.id);
        return result;
      });
      inFlight.set(event.id, delivery);
      // Settled either way (delivery never rejects; if it ever did, the await below answers 500).
      const forget = (): void => void inFlight.delete(event.id);
      delivery.then(forget, forget);
    }
    const result = await delivery;
    const outcome: NotifyResult = !result.delivered ? 'app_error' : first ? 'delivered' : 'duplicate';
    observer.notification(type, status, outcome);
    if (!result.delivered) {
      const sidecarTraceId = answerError(outgoing, SIDECAR_ERRORS.AppUnavailable);
      logger.warn('notification not accepted by the app; the service may send it again', {
        notificationId: event.id,
        type: event.type,
        reason: result.reason,
        sidecarTraceId,
      });
      return;
    }
    logger.info('notification delivered', {
      notificationId: event.id,
      type: event.type,
      recordingStatus: status,
      appStatus: result.status,
    });
    answer(outgoing, 200, { status: first ? 'delivered' : 'duplicate', id: event.id });
  }

  async function invalid(
    outgoing: ServerResponse,
    incoming: IncomingMessage,
    body: Buffer,
    id: string | null,
    problems: readonly string[],
  ): Promise<void> {
    observer.notification('none', 'none', 'invalid');
    // One trace id for the answer and both of its log lines (the refusal, and a failure to keep it).
    const sidecarTraceId = newTraceId();
    logger.warn('notification invalid', { notificationId: id, problems: problems.join('; '), sidecarTraceId });
    let kept = true;
    if (deps.deadLetter) {
      try {
        await deps.deadLetter({
          receivedAt: new Date(deps.now()).toISOString(),
          id,
          problems,
          headers: headerRecord(incoming),
          body: body.toString('utf8'),
        });
        observer.deadLetter('kept');
      } catch (error) {
        // The service publishes no retry policy, so after a 400 the file is the event's only copy: a 503
        // asks for it again, by when the disk or the cap may have room. Nothing is lost.
        kept = false;
        observer.deadLetter('not_kept');
        logger.error(
          'could not keep the invalid notification in the dead-letter file; answered 503 so that the service ' +
            'may send it again',
          {
            notificationId: id,
            errorCode: (error as NodeJS.ErrnoException).code ?? 'unknown',
            sidecarTraceId,
          },
        );
      }
    }
    const spec = kept ? SIDECAR_ERRORS.NotificationInvalid : SIDECAR_ERRORS.NotificationNotKept;
    sendErrorAnswer(outgoing, errorAnswer(spec, { traceId: sidecarTraceId, fields: { problems } }));
  }

  return (incoming, outgoing) => {
    handle(incoming, outgoing).catch((error: unknown) => {
      const spec = error instanceof SidecarError ? error.spec : SIDECAR_ERRORS.Internal;
      observer.notification('none', 'none', 'refused');
      const sidecarTraceId = outgoing.headersSent ? undefined : answerError(outgoing, spec, { Connection: 'close' });
      if (error instanceof SidecarError)
        logger.warn('notification refused', { code: spec.code, reason: error.message, sidecarTraceId });
      else logger.error('notification relay failure', { errorMessage: (error as Error).message, sidecarTraceId });
    });
  };
}

/** Bounded label values: the type and, for recordings, the status. */
function labelsOf(event: Notification): [string, string] {
  if ('unknown' in event) return ['other', 'none'];
  if (event.type === 'SYNC_STREAM_STATUS_EVENT') return [event.type, 'none'];
  return [event.type, event.data.status];
}

function headerRecord(incoming: IncomingMessage): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2)
    record[incoming.rawHeaders[i]!] = incoming.rawHeaders[i + 1]!;
  return record;
}
