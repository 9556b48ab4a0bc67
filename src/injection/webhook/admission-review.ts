// AdmissionReview admission.k8s.io/v1, read and answered: the webhook's request (a Pod being created)
// and its response (allowed, with a JSON patch; or refused with a message). A body that is not a
// review cannot be answered with one (there is no uid to answer), and is left to the caller.

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';

export interface AdmissionRequest {
  readonly uid: string;
  readonly kind?: { readonly group?: string; readonly version?: string; readonly kind?: string };
  readonly namespace?: string;
  readonly operation?: string;
  readonly object?: unknown;
}

export interface AdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  readonly patchType?: 'JSONPatch';
  /** The JSON patch, base64-encoded. */
  readonly patch?: string;
  readonly warnings?: readonly string[];
  readonly status?: { readonly code: number; readonly message: string };
}

/** The request of a review, or why the body is not one. */
export function readAdmissionReview(
  body: unknown,
): { ok: true; request: AdmissionRequest } | { ok: false; problem: string } {
  if (body === null || typeof body !== 'object') return { ok: false, problem: 'the body is not a JSON object' };
  const review = body as { apiVersion?: unknown; kind?: unknown; request?: unknown };
  if (review.apiVersion !== ADMISSION_API_VERSION || review.kind !== 'AdmissionReview') {
    return { ok: false, problem: `the body is not an ${ADMISSION_API_VERSION} AdmissionReview` };
  }
  const request = review.request as AdmissionRequest | undefined;
  if (request === null || typeof request !== 'object' || typeof request.uid !== 'string' || request.uid === '') {
    return { ok: false, problem: 'the review has no request with a uid' };
  }
  return { ok: true, request };
}

/** The review to send back. */
export function admissionReview(response: AdmissionResponse): Record<string, unknown> {
  return { apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', response };
}
