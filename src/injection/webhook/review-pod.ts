// What the webhook answers for one review: the Pod with the sidecar as a JSON patch, the Pod unchanged
// when it is not to be touched (with a warning when it was skipped because it cannot run the sidecar),
// or a refusal naming why. The decisions are the pipeline's, the same as `sfd-sidecar inject` prints;
// unknown sfd-sidecar.io/ annotations are warnings here, not errors. Every review gets an answer, never
// an HTTP error: under `failurePolicy: Ignore` an error would admit the pod unjudged. So a pod whose
// fields have the wrong types is refused with a catalog code, and a failure while answering is the
// judging-failed decision, as a failure while judging is.
import { SIDECAR_ERRORS } from '../../errors.js';
import { DECISION, INJECTED_STATUS } from '../contract.js';
import type { PodTemplate } from '../pod.js';
import { nameFromMetadata } from '../object-name.js';
import { failedDecision } from '../decide/decide.js';
import { REASONS } from '../decide/reasons.js';
import { decisionPatch } from '../decision-patch.js';
import { patchBetween, patchText } from '../json-patch.js';
import type { InjectionOptions } from '../options.js';
import { injectPod, type OptIn, type PodInjection } from '../pipeline/inject-pod.js';
import type { EntitlementPolicy } from '../policy/entitlement-policy.js';
import type { AdmissionRequest, AdmissionResponse } from './admission-review.js';
import { boundedText, boundedWarnings, MAX_LOGGED_CHARACTERS, MAX_MESSAGE_CHARACTERS } from './answer-text.js';

export type ReviewResult = 'injected' | 'skipped' | 'refused' | 'ignored';

export interface ReviewAnswer {
  readonly response: AdmissionResponse;
  readonly result: ReviewResult;
  readonly pod: string;
  /** Who asked, for the decision's log line: the pod's namespace, service account and profiles. */
  readonly who?: { readonly namespace: string; readonly serviceAccount: string; readonly profiles?: string[] };
  /** The decision metric's reason label: none for an injection. */
  readonly reason?: string;
  /** What failed, when judging failed (its class and where), for the decision's log line. */
  readonly failure?: string;
}

/** The largest JSON patch answered: a real pod's is a few KiB (the sidecar, an env entry per container). */
const MAX_PATCH_BYTES = 1024 * 1024;

/** Warnings the API server passes to the client (kubectl prints them). */
const WARNING_PREFIX = 'sfd-sidecar: ';
const prefix = (text: string): string => `${WARNING_PREFIX}${text}`;

export function reviewPod(
  request: AdmissionRequest,
  defaults: InjectionOptions,
  optIn: OptIn,
  policy?: EntitlementPolicy,
): ReviewAnswer {
  try {
    return judgedReview(request, defaults, optIn, policy);
  } catch (error) {
    const decision = failedDecision(request.object, { defaults, optIn }, error);
    const failure = decision.kind === 'refuse' || decision.kind === 'skip' ? decision.failure : undefined;
    const problem = decision.kind === 'refuse' || decision.kind === 'skip' ? decision.problems.join('; ') : '';
    const answered =
      decision.kind === 'refuse'
        ? refused(request, false, problem, REASONS['judging-failed'].label)
        : leftAsItIs(request, [prefix(`${describePod(request)} was left without the sidecar: ${problem}`)], {
            code: 'judging-failed',
          });
    return { ...answered, ...(failure ? { failure } : {}) };
  }
}

function judgedReview(
  request: AdmissionRequest,
  defaults: InjectionOptions,
  optIn: OptIn,
  policy?: EntitlementPolicy,
): ReviewAnswer {
  const pod = request.object;
  const name = describePod(request);
  if (request.kind?.kind !== 'Pod' || pod === null || typeof pod !== 'object')
    return {
      response: allow(request, [prefix('not a Pod with containers; left unchanged')]),
      result: 'ignored',
      pod: name,
    };
  if (request.operation !== undefined && request.operation !== 'CREATE')
    return { response: allow(request), result: 'ignored', pod: name };
  const namespace = typeof request.namespace === 'string' && request.namespace !== '' ? request.namespace : 'default';
  const check = policy && { policy, object: `Pod ${podName(request)}`, namespace };
  const injection = injectPod(pod, defaults, optIn, {}, check);
  const warnings = injection.unknownAnnotations.map((annotation) =>
    prefix(`unknown annotation ${annotation}; it is ignored`),
  );
  const asker = injection.asker;
  const who = asker && {
    namespace: boundedText(namespace, MAX_LOGGED_CHARACTERS),
    serviceAccount: boundedText(asker.serviceAccount, MAX_LOGGED_CHARACTERS),
    ...(asker.profiles ? { profiles: [...asker.profiles] } : {}),
  };
  const failure = injection.failure ? { failure: injection.failure } : {};
  return { ...answer(request, pod, injection, warnings), ...failure, ...(who ? { who } : {}) };
}

function answer(
  request: AdmissionRequest,
  pod: object,
  injection: PodInjection,
  warnings: readonly string[],
): Omit<ReviewAnswer, 'who'> {
  const name = describePod(request);
  switch (injection.outcome) {
    case 'skipped': {
      const notes = injection.warning
        ? [...warnings, prefix(`${name} was left without the sidecar: ${injection.reason}`)]
        : warnings;
      return leftAsItIs(request, notes, injection.code === undefined ? {} : { code: injection.code });
    }
    case 'refused':
      return refused(
        request,
        injection.code === 'pod-shape',
        injection.problems.join('; '),
        REASONS[injection.code].label,
        warnings,
      );
    case 'injected': {
      const patch = patchText(patchBetween(pod, withDecision(injection.template, INJECTED_STATUS)));
      // A patch this large comes only from a pod made to be large; its answer would be held in memory.
      if (patch.length > MAX_PATCH_BYTES)
        return refused(request, true, `its patch would be ${patch.length} bytes`, REASONS['pod-shape'].label, warnings);
      const notes = boundedWarnings([...warnings, ...injection.notes.map(prefix)], WARNING_PREFIX);
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

const allow = (request: AdmissionRequest, warnings: readonly string[] = []): AdmissionResponse => {
  const bounded = boundedWarnings(warnings, WARNING_PREFIX);
  return { uid: request.uid, allowed: true, ...(bounded.length > 0 ? { warnings: bounded } : {}) };
};

/** The pod allowed as it is, its decision recorded (`skipped: CODE`) unless one is recorded already. */
function leftAsItIs(
  request: AdmissionRequest,
  notes: readonly string[],
  why: { readonly code?: keyof typeof REASONS },
): Omit<ReviewAnswer, 'who'> {
  const reason = why.code === undefined ? undefined : REASONS[why.code].label;
  const operations = decisionPatch(request.object, `skipped: ${why.code ?? 'not-asked'}`);
  const response: AdmissionResponse =
    operations.length === 0
      ? allow(request, notes)
      : {
          ...allow(request, notes),
          patchType: 'JSONPatch',
          patch: Buffer.from(patchText(operations)).toString('base64'),
        };
  return { response, result: 'skipped', pod: describePod(request), ...(reason ? { reason } : {}) };
}

function refused(
  request: AdmissionRequest,
  invalid: boolean,
  detail: string,
  reason: string,
  warnings: readonly string[] = [],
): Omit<ReviewAnswer, 'who'> {
  const name = describePod(request);
  const message = invalid
    ? `${SIDECAR_ERRORS.PodInvalid.code}: ${name}: ${detail}`
    : `sfd-sidecar cannot be added to ${name}: ${detail}`;
  const bounded = boundedWarnings(warnings, WARNING_PREFIX);
  return {
    response: {
      uid: request.uid,
      allowed: false,
      status: { code: invalid ? 400 : 403, message: boundedText(message, MAX_MESSAGE_CHARACTERS) },
      ...(bounded.length > 0 ? { warnings: bounded } : {}),
    },
    result: 'refused',
    pod: name,
    reason,
  };
}

/** The injected pod with the decision in its annotations. */
function withDecision(pod: PodTemplate, decision: string): PodTemplate {
  const annotations = pod.metadata?.annotations;
  return { ...pod, metadata: { ...pod.metadata, annotations: { ...annotations, [DECISION]: decision } } };
}

/** A Pod's name; a Pod being created may have only a generateName. */
const podName = (request: AdmissionRequest): string =>
  nameFromMetadata((request.object as { metadata?: unknown } | undefined)?.metadata);

function describePod(request: AdmissionRequest): string {
  const namespace =
    typeof request.namespace === 'string' && request.namespace
      ? ` in ${boundedText(request.namespace, MAX_LOGGED_CHARACTERS)}`
      : '';
  return `Pod ${podName(request)}${namespace}`;
}
