// The notification relay: accept the service's callback only from where it may come, check
// it against the specification, hand it to the application with an Idempotency-Key, and acknowledge
// the service only once the application has accepted it. Invalid events are refused with every problem
// listed and kept in the dead-letter file (503 when it cannot keep them); a repeat of a delivered id is
// acknowledged without delivery.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SidecarError, SIDECAR_ERRORS } from '../errors.js';
import type { Logger } from '../observability/logger.js';
import type { NotifyObserver, NotifyResult } from '../observability/notify-observer.js';
import { answerError, answerJson, refuseNotification } from './relay-answers.js';
import { answerInvalidNotification } from './answer-invalid-notification.js';
import { readBody } from '../http/read-body.js';
import type { DeadLetterWriter } from './dead-letter.js';
import type { DeliveredIds } from './delivered-ids.js';
import { admissionRefusal, type AdmissionRules } from './admit-notification.js';
import { createDeliverOnce, type DeliverOnce } from './deliver-once.js';
import type { AppDelivery } from './deliver-to-app.js';
import { checkNotification } from './check-notification.js';
import type { Notification } from './notifications.js';
import { NOTIFY_SETTINGS } from './settings/notify-settings.js';

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
  const relay: Relay = {
    deps,
    deliverOnce: createDeliverOnce(deps.delivery, deps.deliveredIds, (seconds) => deps.observer.deliveryTook(seconds)),
    handling: 0,
  };
  return (incoming, outgoing) => {
    handle(relay, incoming, outgoing).catch((error: unknown) => answerFailure(deps, outgoing, error));
  };
}

/** The relay's state across notifications. */
interface Relay {
  readonly deps: NotifyRelayDeps;
  readonly deliverOnce: DeliverOnce;
  /** Notifications whose body has arrived: being checked or delivered. */
  handling: number;
}

async function handle(relay: Relay, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const body = await admittedBody(relay, incoming, outgoing);
  if (body === null) return;
  const checked = checkNotification(body);
  if (!checked.ok)
    return answerInvalidNotification(relay.deps, outgoing, {
      incoming,
      body,
      id: checked.id ?? null,
      problems: checked.problems,
    });
  await deliver(relay, { incoming, outgoing, body }, checked.notification);
}

/** The body of a notification the relay takes in hand, or null when it is refused (and answered). */
async function admittedBody(relay: Relay, incoming: IncomingMessage, outgoing: ServerResponse): Promise<Buffer | null> {
  const { deps } = relay;
  const refusal = admissionRefusal(incoming, deps);
  if (refusal) {
    refuseNotification(outgoing, refusal.spec, refusal.reason, deps, refusal.headers);
    return null;
  }
  // Refused before its body is read when the relay is full: each notification in hand holds its body
  // and parsed JSON. It is in hand once its body has arrived, so that callers sending slowly hold no
  // place (the minimum rate cuts them off).
  const full = (): boolean => relay.handling >= deps.maxInflight;
  const overloaded = (): null => {
    const reason = `${relay.handling} notifications in hand (${NOTIFY_SETTINGS.notifyMaxInflight.env})`;
    refuseNotification(outgoing, SIDECAR_ERRORS.Overloaded, reason, deps);
    return null;
  };
  if (full()) return overloaded();
  const body = await readBody(incoming, outgoing, {
    maxBytes: deps.maxBodyBytes,
    minBytesPerSecond: deps.minBodyBytesPerSecond,
  });
  if (full()) return overloaded();
  relay.handling += 1;
  outgoing.on('close', () => (relay.handling -= 1));
  return body;
}

interface Exchange {
  readonly incoming: IncomingMessage;
  readonly outgoing: ServerResponse;
  readonly body: Buffer;
}

/** Hands a valid event to the application once, and acknowledges the service only once it accepted. */
async function deliver(relay: Relay, { incoming, outgoing, body }: Exchange, event: Notification): Promise<void> {
  const { logger, observer } = relay.deps;
  const [type, status] = labelsOf(event);
  const once = await relay.deliverOnce(body, incoming.rawHeaders, event.id);
  if (once.kind === 'already-delivered') {
    observer.notification(type, status, 'duplicate');
    logger.info('notification already delivered; acknowledged again', { notificationId: event.id, type: event.type });
    return answerJson(outgoing, 200, { status: 'duplicate', id: event.id });
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
  answerJson(outgoing, 200, { status: first ? 'delivered' : 'duplicate', id: event.id });
}

/** A notification the relay could not handle: refused when the answer has not started, and logged. */
function answerFailure(deps: NotifyRelayDeps, outgoing: ServerResponse, error: unknown): void {
  const spec = error instanceof SidecarError ? error.spec : SIDECAR_ERRORS.Internal;
  deps.observer.notification('none', 'none', 'refused');
  const sidecarTraceId = outgoing.headersSent ? undefined : answerError(outgoing, spec, { Connection: 'close' });
  if (error instanceof SidecarError)
    deps.logger.warn('notification refused', { code: spec.code, reason: error.message, sidecarTraceId });
  else deps.logger.error('notification relay failure', { errorMessage: (error as Error).message, sidecarTraceId });
}

/** Bounded label values: the type and, for recordings, the status. */
function labelsOf(event: Notification): [string, string] {
  if ('unknown' in event) return ['other', 'none'];
  if (event.type === 'SYNC_STREAM_STATUS_EVENT') return [event.type, 'none'];
  return [event.type, event.data.status];
}
