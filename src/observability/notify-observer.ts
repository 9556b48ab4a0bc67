// What the notification relay reports, and its Prometheus implementation.
import type { Metrics } from './metrics.js';

export type NotifyResult = 'delivered' | 'duplicate' | 'invalid' | 'refused' | 'app_error';
/** An invalid notification in the dead-letter file, or refused 503 because the file could not take it. */
export type DeadLetterResult = 'kept' | 'not_kept';

export interface NotifyObserver {
  /** One notification handled: bounded type (a known type or `other`/`none`), status and result. */
  notification(type: string, status: string, result: NotifyResult): void;
  deliveryTook(seconds: number): void;
  deadLetter(result: DeadLetterResult): void;
}

export function createNotifyObserver(metrics: Metrics): NotifyObserver {
  // Both series from the start, so that the first letter the file cannot take shows as an increase.
  for (const result of ['kept', 'not_kept'] as const)
    metrics.counters.sfd_notification_dead_letters_total.inc({ result }, 0);
  return {
    notification: (type, status, result) => metrics.counters.sfd_notifications_total.inc({ type, status, result }),
    deliveryTook: (seconds) => metrics.histograms.sfd_notification_delivery_duration_seconds.observe(seconds),
    deadLetter: (result) => metrics.counters.sfd_notification_dead_letters_total.inc({ result }),
  };
}
