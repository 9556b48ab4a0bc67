// Every metric the processes expose, as data: name, type, labels, meaning, and which process has it.
// The registry is built from this list, and the metrics table of docs/operations.md is checked against it.
import { SETTINGS } from '../config/settings.js';
import { TRACE_ID_LABEL } from './trace-exemplar.js';

/** Which process exposes a metric: the sidecar (`serve`), the injector, or both. */
export type MetricsComponent = 'sidecar' | 'injector';
const SIDECAR: readonly MetricsComponent[] = ['sidecar'];
const INJECTOR: readonly MetricsComponent[] = ['injector'];
const EVERY_PROCESS: readonly MetricsComponent[] = ['sidecar', 'injector'];

export const METRIC_DEFINITIONS = [
  {
    for: SIDECAR,
    name: 'sfd_requests_total',
    type: 'counter',
    labels: ['profile', 'operation', 'method', 'status'],
    exemplar: TRACE_ID_LABEL,
    help: 'Requests answered by the signing listener, by HTTP status.',
  },
  {
    for: SIDECAR,
    name: 'sfd_request_duration_seconds',
    type: 'histogram',
    labels: ['profile', 'operation', 'method', 'status_class'],
    exemplar: TRACE_ID_LABEL,
    help: 'Whole time through the sidecar, from request to the end of the response.',
  },
  {
    for: SIDECAR,
    name: 'sfd_upstream_duration_seconds',
    type: 'histogram',
    labels: ['profile', 'operation', 'status_class'],
    help: 'Time from sending a request upstream to its response headers.',
  },
  {
    for: SIDECAR,
    name: 'sfd_upstream_errors_total',
    type: 'counter',
    labels: ['profile', 'operation', 'status', 'error_code'],
    help:
      'Upstream 4xx and 5xx answers to each attempt, by the code of their JSON error body (other: not documented; ' +
      'none: no code). A first attempt refused for its key and signed again counts here though its caller got the ' +
      'answer to the second: sfd_requests_total counts what callers got.',
  },
  {
    for: SIDECAR,
    name: 'sfd_sidecar_errors_total',
    type: 'counter',
    labels: ['code'],
    help: "The sidecar's own error answers, by Sidecar.* code.",
  },
  { for: SIDECAR, name: 'sfd_inflight_requests', type: 'gauge', labels: [], help: 'Requests being handled now.' },
  {
    for: EVERY_PROCESS,
    name: 'sfd_buffered_body_bytes',
    type: 'gauge',
    labels: [],
    help:
      'Request-body bytes the signing listener holds now; in the injector, review bodies and the answers not ' +
      `read yet (at most ${SETTINGS.maxBufferedBodyBytes.env}).`,
  },
  {
    for: SIDECAR,
    name: 'sfd_upstream_connections',
    type: 'gauge',
    labels: ['state'],
    help: 'Upstream connections open now: active (carrying a request) or idle (kept alive for the next).',
  },
  {
    for: SIDECAR,
    name: 'sfd_upstream_waiting_requests',
    type: 'gauge',
    labels: [],
    help: `Requests waiting for an upstream connection because ${SETTINGS.upstreamMaxSockets.env} are active.`,
  },
  {
    for: SIDECAR,
    name: 'sfd_clock_skew_seconds',
    type: 'gauge',
    labels: [],
    help: 'Upstream Date header minus the local clock, last seen.',
  },
  {
    for: SIDECAR,
    name: 'sfd_keystore_reloads_total',
    type: 'counter',
    labels: ['result'],
    help: 'Key store loads, by result (success, failure).',
  },
  {
    for: SIDECAR,
    name: 'sfd_keystore_last_success_timestamp_seconds',
    type: 'gauge',
    labels: [],
    help: 'When the key store last loaded successfully (Unix time).',
  },
  {
    for: SIDECAR,
    name: 'sfd_key_not_after_timestamp_seconds',
    type: 'gauge',
    labels: ['profile', 'access_key_id'],
    help:
      'When each key of the profiles this sidecar signs with stops being used (Unix time); keys without ' +
      'notAfter are not listed.',
  },
  {
    for: SIDECAR,
    name: 'sfd_key_current',
    type: 'gauge',
    labels: ['profile', 'access_key_id'],
    help: '1 for the key each profile this sidecar signs with uses now, 0 for its other keys.',
  },
  {
    for: SIDECAR,
    name: 'sfd_resign_retries_total',
    type: 'counter',
    labels: ['profile'],
    help: 'Requests re-signed with another key after the gateway refused the first.',
  },
  {
    for: SIDECAR,
    name: 'sfd_operation_refusals_total',
    type: 'counter',
    labels: ['profile', 'operation', 'mode'],
    help:
      'Calls outside the operations a profile may sign: refused (mode enforced), or signed because the limit ' +
      'is a dry run (mode dry-run).',
  },
  {
    for: SIDECAR,
    name: 'sfd_ready',
    type: 'gauge',
    labels: [],
    help: '1 when the sidecar can sign for its default profile, else 0.',
  },
  {
    for: SIDECAR,
    name: 'sfd_notifications_total',
    type: 'counter',
    labels: ['type', 'status', 'result'],
    help:
      'Notifications received by the relay, by type, recording status and result (delivered, duplicate, invalid, ' +
      'refused, app_error).',
  },
  {
    for: SIDECAR,
    name: 'sfd_notification_delivery_duration_seconds',
    type: 'histogram',
    labels: [],
    help: 'Time the application took to accept a notification.',
  },
  {
    for: SIDECAR,
    name: 'sfd_notification_dead_letters_total',
    type: 'counter',
    labels: ['result'],
    help:
      'Invalid notifications appended to the dead-letter file (kept), or answered 503 because it could not take ' +
      'them (not_kept).',
  },
  {
    for: EVERY_PROCESS,
    name: 'sfd_log_lines_dropped_total',
    type: 'counter',
    labels: [],
    help: 'Log lines dropped because stdout (the log collector) did not take them and 16 MiB were waiting.',
  },
  {
    for: EVERY_PROCESS,
    name: 'sfd_connections_open',
    type: 'gauge',
    labels: ['listener'],
    help: 'Connections each listener holds now (signing, admin, notifications), at most its SFD_*MAX_CONNECTIONS.',
  },
  {
    for: EVERY_PROCESS,
    name: 'sfd_connections_shed_total',
    type: 'counter',
    labels: ['listener', 'reason'],
    help:
      'Connections closed to stay within the bound, of the caller holding the most: idle (kept alive), unused ' +
      '(sent nothing yet) or refused (none could go).',
  },
  {
    for: EVERY_PROCESS,
    name: 'sfd_build_info',
    type: 'gauge',
    labels: ['version'],
    help: 'Always 1; the version label is the running build of sfd-sidecar.',
  },
  {
    for: INJECTOR,
    name: 'sfd_injector_reviews_total',
    type: 'counter',
    labels: ['result'],
    help:
      'Admission reviews answered by the injector: injected, skipped (not asked for, or already injected), ' +
      'refused, ignored (not a Pod created) or invalid (not a review).',
  },
  {
    for: INJECTOR,
    name: 'sfd_injector_decisions_total',
    type: 'counter',
    labels: ['decision', 'reason'],
    help:
      'Pods the injector decided on: injected (reason none), skipped or refused, by the reason of the rule ' +
      'that decided (docs/injection.md lists every reason).',
  },
  {
    for: INJECTOR,
    name: 'sfd_injector_review_duration_seconds',
    type: 'histogram',
    labels: [],
    help: 'Time the injector took to answer an admission review, from its first byte to the answer.',
  },
  {
    for: INJECTOR,
    name: 'sfd_injector_certificate_expiry_timestamp_seconds',
    type: 'gauge',
    labels: [],
    help: "When the webhook's certificate in use stops being valid (Unix time).",
  },
] as const;
