// The one injection: a pod template in, its decision (decide/) rendered (render/), out comes the pod
// with the sidecar, or why it is left alone or refused. `sfd-sidecar inject` maps it over the pod
// templates of manifests; the admission webhook applies it to a Pod and answers with the difference
// as a JSON patch. Pure: no I/O.
//
// A pod that already carries a sidecar is judged by every rule like any other. The webhook then leaves
// it as it is (an offline injection wins); `inject` brings it to what it is asked for now: the
// injection of the pod without its sidecar. A failure anywhere on the way, rendering included, is the
// decision judging-failed.ts makes, never an exception.
import { decide, failedDecision, type Decision, type DecideInput } from '../decide/decide.js';
import type { OptIn } from '../decide/facts.js';
import { REASONS, type ReasonCode } from '../decide/reasons.js';
import { asksForTheSidecar } from '../decide/rules.js';
import { sameValue } from '../json-patch.js';
import type { InjectionOptions } from '../options.js';
import type { PodTemplate, StringMap } from '../pod.js';
import { renderPod } from '../render/render-pod.js';
import { uninjectPod } from '../render/uninject-pod.js';

export type { OptIn } from '../decide/facts.js';
export type { ReasonCode } from '../decide/reasons.js';

export interface Asker {
  readonly serviceAccount: string;
  /** The profiles its sidecar would sign with, when they can be told. */
  readonly profiles: readonly string[] | null;
}

export type PodInjection = {
  readonly unknownAnnotations: readonly string[];
  readonly asker?: Asker;
  /** What failed, when judging failed (its class and where), for the decision's log line. */
  readonly failure?: string;
} & (
  | { readonly outcome: 'injected'; readonly template: PodTemplate; readonly notes: readonly string[] }
  | {
      readonly outcome: 'skipped';
      /** What to tell the reader. */
      readonly reason: string;
      readonly code?: ReasonCode;
      /** Skipped because it cannot safely run the sidecar when only its namespace asked: a warning. */
      readonly warning?: boolean;
    }
  | { readonly outcome: 'refused'; readonly code: ReasonCode; readonly problems: readonly string[] }
);

/** An entitlement policy to apply, and where the pod is: its object's name and its namespace. */
export type PolicyCheck = NonNullable<DecideInput['entitlement']>;

/**
 * @param inherited annotations of the workload around the template (the template's own win)
 * @param entitlement the policy the pod's profiles must be entitled by; none: every profile may be used
 */
export function injectPod(
  template: unknown,
  defaults: InjectionOptions,
  optIn: OptIn,
  inherited: Readonly<StringMap> = {},
  entitlement?: PolicyCheck,
): PodInjection {
  const input: DecideInput = { defaults, optIn, inherited, ...(entitlement ? { entitlement } : {}) };
  try {
    return judgeAndRender(template, input);
  } catch (error) {
    return outcomeOf(template as PodTemplate, failedDecision(template, input, error));
  }
}

function judgeAndRender(template: unknown, input: DecideInput): PodInjection {
  const decision = decide(template, input);
  // `inject` replaces the sidecar a pod carries, so it judges the pod without it; whether the pod asks at
  // all is still its own to say. A pod that gets no sidecar in its place keeps the one it carries, and
  // a refusal of that one stands.
  if (input.optIn !== 'every-workload' || !decision.facts?.carried || fromTheAskRule(decision))
    return outcomeOf(template as PodTemplate, decision);
  const again = reinject(template as PodTemplate, input);
  return again.outcome === 'skipped' && decision.kind === 'refuse'
    ? outcomeOf(template as PodTemplate, decision)
    : again;
}

const fromTheAskRule = (decision: Decision): boolean =>
  (decision.kind === 'skip' || decision.kind === 'refuse') && decision.rule === asksForTheSidecar.name;

/** `inject` over a pod that carries a sidecar: the injection of the pod without it, asked for now. */
function reinject(template: PodTemplate, input: DecideInput): PodInjection {
  const bare = uninjectPod(template);
  const again = outcomeOf(bare, decide(bare, input));
  if (again.outcome !== 'injected') return again;
  if (sameValue(again.template, template)) {
    const { unknownAnnotations, asker } = again;
    const reason = 'the sidecar is already in the pod, as asked';
    return { unknownAnnotations, ...(asker ? { asker } : {}), outcome: 'skipped', reason, code: 'already-injected' };
  }
  return { ...again, notes: [...again.notes, 'the sidecar it had is replaced by the one asked for now'] };
}

function outcomeOf(template: PodTemplate, decision: Decision): PodInjection {
  const facts = decision.facts;
  const common = {
    unknownAnnotations: facts?.unknownAnnotations ?? [],
    ...(facts ? { asker: { serviceAccount: facts.serviceAccount, profiles: facts.profiles } } : {}),
    ...(decision.kind !== 'inject' && decision.kind !== 'keep' && decision.failure !== undefined
      ? { failure: decision.failure }
      : {}),
  };
  switch (decision.kind) {
    case 'inject': {
      const rendered = renderPod(
        template,
        { options: decision.facts.options, ...decision },
        decision.facts.annotations,
      );
      return { ...common, outcome: 'injected', template: rendered.template, notes: rendered.notes };
    }
    case 'keep':
      return { ...common, outcome: 'skipped', reason: REASONS['already-injected'].sentence, code: 'already-injected' };
    case 'skip':
      return {
        ...common,
        outcome: 'skipped',
        reason:
          decision.warning && decision.failure === undefined
            ? `it cannot run the sidecar: ${decision.problems.join('; ')}`
            : decision.problems.join('; '),
        code: decision.reason,
        warning: decision.warning,
      };
    case 'refuse':
      return { ...common, outcome: 'refused', code: decision.reason, problems: decision.problems };
  }
}
