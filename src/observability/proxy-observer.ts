// What the signing handler reports, and its Prometheus implementation: requests, latencies, upstream
// and sidecar errors, in-flight count, clock skew and re-signed retries.
import { statusClass, type Metrics } from './metrics.js';
import { errorCodeLabel } from './error-code-label.js';
import type { Operation } from '../operations/named-operations.js';
import { traceIdOf } from './trace-exemplar.js';

export interface RequestLabels {
  /** A profile from the key store, or `none` when the request was refused before one was chosen. */
  readonly profile: string;
  readonly operation: Operation;
  readonly method: string;
}

export interface ProxyObserver {
  requestStarted(): void;
  /** Requests started and not yet finished: the one count the overload check and the gauge read. */
  requestsInFlight(): number;
  /**
   * The request is over. `traceId` is the `x-sfd-trace-id` its answer carried (the gateway's, or the
   * sidecar's own), which the request counter and duration keep as their exemplar when it has a trace
   * id's form.
   */
  requestFinished(labels: RequestLabels, status: number, seconds: number, traceId: string | undefined): void;
  /** The upstream sent response headers `seconds` after the request was sent. */
  upstreamAnswered(labels: RequestLabels, status: number, seconds: number, dateHeader: string | undefined): void;
  /** An upstream 4xx/5xx answer and the `code` of its JSON body, or null when it has none. */
  upstreamError(labels: RequestLabels, status: number, code: string | null): void;
  sidecarError(code: string): void;
  resigned(profile: string): void;
  /** A call outside the profile's operations: refused, or signed under a dry run. */
  operationRefused(labels: RequestLabels, mode: 'enforced' | 'dry-run'): void;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The method label is bounded too: anything unusual is `OTHER`. */
const methodLabel = (method: string): string => (KNOWN_METHODS.has(method) ? method : 'OTHER');

export function createProxyObserver(metrics: Metrics, now: () => number): ProxyObserver {
  const { counters, perRequest } = metrics;
  let inflight = 0;
  metrics.observeInflight(() => inflight);
  // The Date header changes once a second: parse it, and update the skew gauge, only when it changes.
  let lastDateHeader: string | undefined;
  return {
    requestStarted: () => {
      inflight += 1;
      metrics.eventLoop.noteRequest();
    },
    requestsInFlight: () => inflight,
    requestFinished(labels, status, seconds, traceId) {
      inflight -= 1;
      const method = methodLabel(labels.method);
      // Checked, and the clock read, once for both series.
      const exemplar = traceIdOf(traceId);
      const atMs = exemplar === undefined ? 0 : now();
      // Label values in the order of METRIC_DEFINITIONS.
      perRequest.requests.series([labels.profile, labels.operation, method, String(status)]).inc(exemplar, atMs);
      perRequest.requestDuration
        .series([labels.profile, labels.operation, method, statusClass(status)])
        .observe(seconds, exemplar, atMs);
    },
    upstreamAnswered(labels, status, seconds, dateHeader) {
      perRequest.upstreamDuration.series([labels.profile, labels.operation, statusClass(status)]).observe(seconds);
      if (dateHeader === undefined || dateHeader === lastDateHeader) return;
      lastDateHeader = dateHeader;
      const upstreamMs = Date.parse(dateHeader);
      if (!Number.isNaN(upstreamMs)) metrics.clockSkew.set((upstreamMs - now()) / 1000);
    },
    upstreamError(labels, status, code) {
      counters.sfd_upstream_errors_total.inc({
        profile: labels.profile,
        operation: labels.operation,
        status: String(status),
        error_code: errorCodeLabel(code),
      });
    },
    sidecarError: (code) => counters.sfd_sidecar_errors_total.inc({ code }),
    resigned: (profile) => counters.sfd_resign_retries_total.inc({ profile }),
    operationRefused: (labels, mode) =>
      counters.sfd_operation_refusals_total.inc({ profile: labels.profile, operation: labels.operation, mode }),
  };
}
