// What the notification relay reports, and its Prometheus implementation (issue #8).
import type { Metrics } from './metrics.js';

export type NotifyResult = 'delivered' | 'duplicate' | 'invalid' | 'refused' | 'app_error';

export interface NotifyObserver {
  /** One notification handled: bounded type (a known type or `other`/`none`), status and result. */
  notification(type: string, status: string, result: NotifyResult): void;
  deliveryTook(seconds: number): void;
}

export function createNotifyObserver(metrics: Metrics): NotifyObserver {
  return {
    notification: (type, status, result) => metrics.counters.sfd_notifications_total.inc({ type, status, result }),
    deliveryTook: (seconds) => metrics.histograms.sfd_notification_delivery_duration_seconds.observe(seconds),
  };
}
