// Why was this pod (not) injected? The decision the injector would take on it today, from the same
// rules in the same order, with the rule that decided, its reason, the problems it found and what to
// change; and the decision the injector recorded on the pod when it admitted it.
import { DECISION } from '../contract.js';
import { decide, type DecideInput } from '../decide/decide.js';
import { REASONS, type ReasonCode } from '../decide/reasons.js';
import type { PodTemplate } from '../pod.js';

export interface PodExplanation {
  /** What the injector would do: inject it, leave it as it is, or refuse it. */
  readonly decision: 'injected' | 'left as it is' | 'left as it is, with a warning' | 'refused';
  readonly rule?: string;
  readonly reason?: ReasonCode;
  readonly problems: readonly string[];
  /** The reason's sentence and what to change, from the reasons table. */
  readonly why?: string;
  readonly fix?: string;
  /** What the injector wrote on the pod when it admitted it, if it did. */
  readonly recorded?: string;
}

export function explainPod(template: unknown, input: DecideInput): PodExplanation {
  const decision = decide(template, input);
  const annotations = (template as Partial<PodTemplate> | null)?.metadata?.annotations;
  const recorded = typeof annotations?.[DECISION] === 'string' ? { recorded: annotations[DECISION] } : {};
  switch (decision.kind) {
    case 'inject':
      return { decision: 'injected', problems: decision.moves, ...recorded };
    case 'keep':
      return {
        decision: 'left as it is',
        reason: 'already-injected',
        problems: [],
        why: REASONS['already-injected'].sentence,
        fix: REASONS['already-injected'].fix,
        ...recorded,
      };
    case 'skip':
    case 'refuse': {
      const reason = REASONS[decision.reason];
      return {
        decision:
          decision.kind === 'refuse' ? 'refused' : decision.warning ? 'left as it is, with a warning' : 'left as it is',
        rule: decision.rule,
        reason: decision.reason,
        problems: decision.problems,
        why: reason.sentence,
        fix: reason.fix,
        ...recorded,
      };
    }
  }
}
