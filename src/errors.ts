// The catalog of the sidecar's own errors: stable code, HTTP status and fixed public message.
// Shape follows the upstream's error body ({code, message}); codes live under `Sidecar.`.

export interface SidecarErrorSpec {
  readonly code: `Sidecar.${string}`;
  readonly status: number;
  readonly message: string;
}

export const SIDECAR_ERRORS = {
  BadRequest: {
    code: 'Sidecar.BadRequest',
    status: 400,
    message: 'The request could not be understood by the sidecar.',
  },
  MalformedRequest: {
    code: 'Sidecar.MalformedRequest',
    status: 400,
    message: 'The request is not valid HTTP/1.1; it was refused before it was read.',
  },
  RequestTimeout: {
    code: 'Sidecar.RequestTimeout',
    status: 408,
    message: 'The request head or body was not received in time.',
  },
  ForbiddenTarget: {
    code: 'Sidecar.ForbiddenTarget',
    status: 403,
    message: 'The request names a host other than the configured upstream; the sidecar signs only for its upstream.',
  },
  ProfileForbidden: {
    code: 'Sidecar.ProfileForbidden',
    status: 403,
    message: 'The requested profile is not one this caller may use (SFD_ALLOWED_PROFILES).',
  },
  OperationForbidden: {
    code: 'Sidecar.OperationForbidden',
    status: 403,
    message: 'The profile may not sign this operation: its key store profile or its entitlement limits it.',
  },
  NotificationForbidden: {
    code: 'Sidecar.NotificationForbidden',
    status: 403,
    message: 'The notification was refused: wrong token, source address or notification header.',
  },
  NotFound: { code: 'Sidecar.NotFound', status: 404, message: 'There is nothing at this path.' },
  MethodNotAllowed: {
    code: 'Sidecar.MethodNotAllowed',
    status: 405,
    message:
      'This method is not accepted here (the Allow header names those that are); no listener opens CONNECT tunnels.',
  },
  BodyTooLarge: {
    code: 'Sidecar.BodyTooLarge',
    status: 413,
    message:
      "The request body exceeds this listener's limit (SFD_MAX_BODY_BYTES; on the notification relay, " +
      'SFD_NOTIFY_MAX_BODY_BYTES).',
  },
  HeadersTooLarge: {
    code: 'Sidecar.HeadersTooLarge',
    status: 431,
    message: 'The request head is larger than this listener accepts.',
  },
  UnsupportedMediaType: {
    code: 'Sidecar.UnsupportedMediaType',
    status: 415,
    message: 'Notifications must be JSON (Content-Type: application/json).',
  },
  AdmissionReviewInvalid: {
    code: 'Sidecar.AdmissionReviewInvalid',
    status: 400,
    message: 'The body is not an admission.k8s.io/v1 AdmissionReview with a request uid.',
  },
  PodInvalid: {
    code: 'Sidecar.PodInvalid',
    status: 400,
    message: 'The pod in the admission review does not have the shape of a Kubernetes Pod.',
  },
  UnsignedBody: {
    code: 'Sidecar.UnsignedBody',
    status: 400,
    message:
      'A GET or HEAD request with a query carries a body the signature would not cover (the query is signed in ' +
      "the body's place); send the body with POST, or no body.",
  },
  NotificationInvalid: {
    code: 'Sidecar.NotificationInvalid',
    status: 400,
    message: 'The notification does not follow the specification; see problems.',
  },
  Internal: { code: 'Sidecar.Internal', status: 500, message: 'The sidecar failed to handle the request.' },
  UpstreamUnreachable: {
    code: 'Sidecar.UpstreamUnreachable',
    status: 502,
    message: 'The upstream could not be reached.',
  },
  UpstreamClosed: {
    code: 'Sidecar.UpstreamClosed',
    status: 502,
    message:
      'The upstream closed the connection without answering; the request may have reached it, so it was not ' +
      'sent again.',
  },
  NotificationNotKept: {
    code: 'Sidecar.NotificationNotKept',
    status: 503,
    message:
      'The notification does not follow the specification and could not be kept in the dead-letter file; send ' +
      'it again later.',
  },
  AppUnavailable: {
    code: 'Sidecar.AppUnavailable',
    status: 503,
    message: 'The application did not accept the notification; send it again later.',
  },
  Overloaded: {
    code: 'Sidecar.Overloaded',
    status: 503,
    message:
      'The sidecar is handling as many requests as it allows (SFD_MAX_INFLIGHT; on the notification relay, ' +
      'SFD_NOTIFY_MAX_INFLIGHT); try again.',
  },
  BodyBufferFull: {
    code: 'Sidecar.BodyBufferFull',
    status: 503,
    message:
      'The request bodies being handled fill the memory the sidecar keeps for them ' +
      '(SFD_MAX_BUFFERED_BODY_BYTES); try again.',
  },
  ConnectionsFull: {
    code: 'Sidecar.ConnectionsFull',
    status: 503,
    message:
      'This listener holds every connection it allows (SFD_MAX_CONNECTIONS; admin: SFD_ADMIN_MAX_CONNECTIONS; ' +
      'relay: SFD_NOTIFY_MAX_CONNECTIONS) and none can be closed to make room: those of callers holding more ' +
      "carry requests, and this caller's own carry requests or opened less than a second ago; try again.",
  },
  NotReady: {
    code: 'Sidecar.NotReady',
    status: 503,
    message: 'The sidecar cannot sign with this profile yet; reason says why.',
  },
  HttpVersionNotSupported: {
    code: 'Sidecar.HttpVersionNotSupported',
    status: 505,
    message: 'Only HTTP/1.1 and HTTP/1.0 are spoken here.',
  },
  UpstreamTimeout: {
    code: 'Sidecar.UpstreamTimeout',
    status: 504,
    message: 'The upstream did not answer in time (SFD_UPSTREAM_TIMEOUT_MS).',
  },
} as const satisfies Record<string, SidecarErrorSpec>;

export type SidecarErrorName = keyof typeof SIDECAR_ERRORS;

/** An error that maps to one catalog entry; `cause` is for logs only, never for the caller. */
export class SidecarError extends Error {
  readonly spec: SidecarErrorSpec;
  constructor(name: SidecarErrorName, options?: { cause?: unknown }) {
    super(SIDECAR_ERRORS[name].message, options);
    this.name = 'SidecarError';
    this.spec = SIDECAR_ERRORS[name];
  }
}

/** The JSON body of a sidecar error, the upstream's shape. */
export function errorBody(spec: SidecarErrorSpec): string {
  return JSON.stringify({ code: spec.code, message: spec.message });
}
