// An AdmissionReview of a Pod being created, as the API server sends it to the webhook.
export function admissionReviewOf(pod: object, namespace = 'shop'): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: '00000000-0000-4000-8000-000000000001',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      namespace,
      operation: 'CREATE',
      object: pod,
    },
  });
}
