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
import { admissionRefusal, type AdmissionRules } from './admit-notification.js';
import { createDeliverOnce } from './deliver-once.js';
import type { AppDelivery } from './deliver-to-app.js';
import { checkNotification } from './check-notification.js';
import type { Notification } from './notifications.js';
import { SETTINGS } from '../config/settings.js';

export interface NotifyRelayDeps extends AdmissionRules {
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

export function createNotificationHandler(deps: NotifyRelayDeps): NotificationHandler {
  const { logger, observer } = deps;
  const deliverOnce = createDeliverOnce(deps.delivery, deps.deliveredIds, (seconds) => observer.deliveryTook(seconds));
  /** Notifications whose body has arrived: being checked or delivered. */
  let handling = 0;

  const answer = (outgoing: ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    outgoing.writeHead(status, { 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(text) });
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
    const refusal = admissionRefusal(incoming, deps);
    if (refusal) return refuse(outgoing, refusal.spec, refusal.reason, refusal.headers);
    // Refused before its body is read when the relay is full: each notification in hand holds its body
    // and parsed JSON. It is in hand once its body has arrived, so that callers sending slowly hold no
    // place (the minimum rate cuts them off).
    const full = (): boolean => handling >= deps.maxInflight;
    const overloaded = (): void =>
      refuse(
        outgoing,
        SIDECAR_ERRORS.Overloaded,
        `${handling} notifications in hand (${SETTINGS.notifyMaxInflight.env})`,
      );
    if (full()) return overloaded();
    const body = await readBody(incoming, outgoing, {
      maxBytes: deps.maxBodyBytes,
      minBytesPerSecond: deps.minBodyBytesPerSecond,
    });
    if (full()) return overloaded();
    handling += 1;
    outgoing.on('close', () => (handling -= 1));

    const checked = checkNotification(body);
    if (!checked.ok) return invalid(outgoing, incoming, body, checked.id ?? null, checked.problems);
    const event = checked.notification;
    const [type, status] = labelsOf(event);

    const once = await deliverOnce(body, incoming.rawHeaders, event.id);
    if (once.kind === 'already-delivered') {
      observer.notification(type, status, 'duplicate');
      logger.info('notification already delivered; acknowledged again', { notificationId: event.id, type: event.type });
      return answer(outgoing, 200, { status: 'duplicate', id: event.id });
    }
    const { first, result } = once;
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
