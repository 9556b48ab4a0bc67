// What the webhook answers for one review: the Pod with the sidecar as a JSON patch, the Pod unchanged
// when it is not to be touched (with a warning when it was skipped because it cannot run the sidecar),
// or a refusal naming why. The decisions are the pipeline's, the same as `sfd-sidecar inject` prints;
// unknown sfd-sidecar.io/ annotations are warnings here, not errors. A pod whose fields have the wrong
// types is refused with a catalog code in an answer, never an HTTP error: under `failurePolicy: Ignore`
// an error would admit it.
import { SIDECAR_ERRORS } from '../../errors.js';
import { DECISION, INJECTED_STATUS } from '../contract.js';
import type { PodTemplate } from '../pod.js';
import { nameFromMetadata } from '../object-name.js';
import { REASONS } from '../decide/reasons.js';
import { patchBetween, patchText } from '../json-patch.js';
import type { InjectionOptions } from '../options.js';
import { injectPod, type OptIn, type PodInjection } from '../pipeline/inject-pod.js';
import type { EntitlementPolicy } from '../policy/entitlement-policy.js';
import type { AdmissionRequest, AdmissionResponse } from './admission-review.js';

export type ReviewResult = 'injected' | 'skipped' | 'refused' | 'ignored';

export interface ReviewAnswer {
  readonly response: AdmissionResponse;
  readonly result: ReviewResult;
  readonly pod: string;
  /** Who asked, for the decision's log line: the pod's namespace, service account and profiles. */
  readonly who?: { readonly namespace: string; readonly serviceAccount: string; readonly profiles?: string[] };
  /** The decision metric's reason label: none for an injection. */
  readonly reason?: string;
}

/** The largest JSON patch answered: a real pod's is a few KiB (the sidecar, an env entry per container). */
const MAX_PATCH_BYTES = 1024 * 1024;

/** Warnings the API server passes to the client (kubectl prints them). */
const prefix = (text: string): string => `sfd-sidecar: ${text}`;

export function reviewPod(
  request: AdmissionRequest,
  defaults: InjectionOptions,
  optIn: OptIn,
  policy?: EntitlementPolicy,
): ReviewAnswer {
  const allow = (warnings: readonly string[] = []): AdmissionResponse => ({
    uid: request.uid,
    allowed: true,
    ...(warnings.length > 0 ? { warnings } : {}),
  });
  const pod = request.object;
  const name = describePod(request);
  if (request.kind?.kind !== 'Pod' || pod === null || typeof pod !== 'object')
    return { response: allow([prefix('not a Pod with containers; left unchanged')]), result: 'ignored', pod: name };
  if (request.operation !== undefined && request.operation !== 'CREATE')
    return { response: allow(), result: 'ignored', pod: name };
  const namespace = typeof request.namespace === 'string' && request.namespace !== '' ? request.namespace : 'default';
  const check = policy && { policy, object: `Pod ${podName(request)}`, namespace };
  const injection = injectPod(pod, defaults, optIn, {}, check);
  const warnings = injection.unknownAnnotations.map((annotation) =>
    prefix(`unknown annotation ${annotation}; it is ignored`),
  );
  const asker = injection.asker;
  const who = asker && {
    namespace,
    serviceAccount: asker.serviceAccount,
    ...(asker.profiles ? { profiles: [...asker.profiles] } : {}),
  };
  return { ...answer(injection), ...(who ? { who } : {}) };

  function answer(injection: PodInjection): Omit<ReviewAnswer, 'who'> {
    switch (injection.outcome) {
      case 'skipped': {
        const reason = injection.code === undefined ? undefined : REASONS[injection.code].label;
        const notes = injection.warning
          ? [...warnings, prefix(`${name} was left without the sidecar: ${injection.reason}`)]
          : warnings;
        const decided = withDecision(pod as PodTemplate, `skipped: ${injection.code ?? 'not-asked'}`, true);
        return {
          response: patched(decided, notes),
          result: 'skipped',
          pod: name,
          ...(reason ? { reason } : {}),
        };
      }
      case 'refused':
        return refused(injection.code === 'pod-shape', injection.problems.join('; '), REASONS[injection.code].label);
      case 'injected': {
        const patch = patchText(patchBetween(pod, withDecision(injection.template, INJECTED_STATUS, false)));
        // A patch this large comes only from a pod made to be large; its answer would be held in memory.
        if (patch.length > MAX_PATCH_BYTES)
          return refused(true, `its patch would be ${patch.length} bytes`, REASONS['pod-shape'].label);
        const notes = [...warnings, ...injection.notes.map(prefix)];
        return {
          response: {
            uid: request.uid,
            allowed: true,
            patchType: 'JSONPatch',
            patch: Buffer.from(patch).toString('base64'),
            ...(notes.length > 0 ? { warnings: notes } : {}),
          },
          result: 'injected',
          pod: name,
        };
      }
    }
  }

  /** The pod with the decision recorded, as a patch; the pod unchanged when there is nothing to record. */
  function patched(decided: PodTemplate, notes: readonly string[]): AdmissionResponse {
    const operations = patchBetween(pod, decided);
    if (operations.length === 0) return allow(notes);
    return {
      ...allow(notes),
      patchType: 'JSONPatch',
      patch: Buffer.from(patchText(operations)).toString('base64'),
    };
  }

  function refused(invalid: boolean, detail: string, reason: string): Omit<ReviewAnswer, 'who'> {
    return {
      response: {
        uid: request.uid,
        allowed: false,
        status: invalid
          ? { code: 400, message: `${SIDECAR_ERRORS.PodInvalid.code}: ${name}: ${detail}` }
          : { code: 403, message: `sfd-sidecar cannot be added to ${name}: ${detail}` },
        ...(warnings.length > 0 ? { warnings } : {}),
      },
      result: 'refused',
      pod: name,
      reason,
    };
  }
}

/**
 * The pod with the injector's decision in its annotations. A decision already recorded stays when the
 * pod is only left as it is: the webhook runs again after a later webhook changes a pod it injected, and
 * then finds its own sidecar there.
 */
function withDecision(pod: PodTemplate, decision: string, keepRecorded: boolean): PodTemplate {
  const annotations = pod.metadata?.annotations;
  if (keepRecorded && typeof annotations?.[DECISION] === 'string') return pod;
  return { ...pod, metadata: { ...pod.metadata, annotations: { ...annotations, [DECISION]: decision } } };
}

/** A Pod's name; a Pod being created may have only a generateName. */
const podName = (request: AdmissionRequest): string =>
  nameFromMetadata((request.object as { metadata?: unknown } | undefined)?.metadata);

function describePod(request: AdmissionRequest): string {
  const namespace = typeof request.namespace === 'string' && request.namespace ? ` in ${request.namespace}` : '';
  return `Pod ${podName(request)}${namespace}`;
}
