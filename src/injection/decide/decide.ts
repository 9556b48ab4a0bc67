// The decision on one pod: its shape checked first (nothing else can be read from a pod of the wrong
// types), its facts computed once, then every rule in order; the first that fails decides, and what it
// does to the pod is its reason's action (reasons.ts). A failure while judging is a decision too
// (judging-failed.ts), never an exception: the webhook must answer every review. Pure: no I/O.
import type { InjectionOptions } from '../options.js';
import type { PodTemplate, StringMap } from '../pod.js';
import { choosePorts, type ChosenPorts } from './choose-ports.js';
import { podFacts, type OptIn, type PodFacts } from './facts.js';
import { podShapeProblems } from './pod-shape.js';
import { failedJudgement, JUDGED_WITHOUT_FAILURE } from './judging-failed.js';
import { podWithoutNulls } from './without-nulls.js';
import { REASONS, type ReasonCode } from './reasons.js';
import { RULES, type RuleContext } from './rules.js';
import { operationsNarrowing, type Narrowing } from './operations-narrowing.js';

export interface DecideInput {
  readonly defaults: InjectionOptions;
  readonly optIn: OptIn;
  /** Annotations of the workload around the template (the template's own win). */
  readonly inherited?: Readonly<StringMap>;
  readonly entitlement?: RuleContext['entitlement'];
}

export type Decision =
  | {
      readonly kind: 'inject';
      readonly facts: PodFacts;
      readonly ports: ChosenPorts;
      readonly moves: string[];
      /** The operations the sidecar may sign with each of its profiles (SFD_OPERATIONS). */
      readonly narrowing: Narrowing;
    }
  /** The pod carries a sidecar that passes every rule: it is left as it is. */
  | { readonly kind: 'keep'; readonly facts: PodFacts }
  | {
      readonly kind: 'skip';
      /** Absent when judging failed: then nothing is known of the pod. */
      readonly facts?: PodFacts;
      /** The rule that decided. */
      readonly rule: string;
      readonly reason: ReasonCode;
      readonly problems: readonly string[];
      /** Skipped because it cannot safely run the sidecar, when only its namespace asked: a warning. */
      readonly warning: boolean;
      /** What failed, when judging failed (its class and where). */
      readonly failure?: string;
    }
  | {
      readonly kind: 'refuse';
      /** Absent when the pod's shape is wrong or judging failed: then nothing else is known of it. */
      readonly facts?: PodFacts;
      /** The rule that decided. */
      readonly rule: string;
      readonly reason: ReasonCode;
      readonly problems: readonly string[];
      /** What failed, when judging failed (its class and where). */
      readonly failure?: string;
    };

export function decide(template: unknown, input: DecideInput): Decision {
  try {
    return judge(template, input);
  } catch (error) {
    return failedDecision(template, input, error);
  }
}

/** The decision on a pod whose judging failed, as judging-failed.ts reads it. */
export function failedDecision(template: unknown, input: DecideInput, error: unknown): Decision {
  const failed = failedJudgement(template, input, error);
  const decided = {
    rule: JUDGED_WITHOUT_FAILURE,
    reason: 'judging-failed' as const,
    problems: [failed.problem],
    failure: failed.failure,
  };
  return failed.kind === 'refuse' ? { kind: 'refuse', ...decided } : { kind: 'skip', ...decided, warning: true };
}

function judge(template: unknown, input: DecideInput): Decision {
  const shape = podShapeProblems(template);
  if (shape.length > 0) return { kind: 'refuse', rule: 'hasThePodShape', reason: 'pod-shape', problems: shape };
  // The API server drops a field whose value is null before anything runs the pod: judged as absent.
  const pod = podWithoutNulls(template as PodTemplate);
  const facts = podFacts(pod, input.defaults, input.optIn, input.inherited ?? {});
  const ports =
    facts.carried === null
      ? choosePorts(pod.spec, {
          signing: facts.options.signingPort,
          admin: facts.options.adminPort,
          signingFixed: facts.options.signingPortFromAnnotation,
        })
      : null;
  const context: RuleContext = { defaults: input.defaults, entitlement: input.entitlement, ports };
  // A pod that carries a sidecar is judged whole even when it did not ask: left as it is, it keeps that
  // sidecar, so a rule it fails refuses it.
  let skipped: Decision | null = null;
  for (const rule of RULES) {
    const found = rule(facts, context);
    if (found === null) continue;
    const { action } = REASONS[found.reason];
    const decided = { facts, rule: rule.name, reason: found.reason, problems: found.problems };
    if (action === 'skip' && facts.carried !== null) {
      skipped ??= { kind: 'skip', ...decided, warning: false };
      continue;
    }
    if (action === 'skip') return { kind: 'skip', ...decided, warning: false };
    if (action === 'unsafe' && !facts.askedItself && facts.carried === null)
      return { kind: 'skip', ...decided, warning: true };
    return { kind: 'refuse', ...decided };
  }
  if (skipped !== null) return skipped;
  if (facts.carried !== null) return { kind: 'keep', facts };
  // Every rule held, so the ports were found and the operations asked for are granted.
  const chosen = ports as { ok: true; ports: ChosenPorts; moves: string[] };
  const { narrowing } = operationsNarrowing(facts, facts.profiles ?? [], input.entitlement);
  return { kind: 'inject', facts, ports: chosen.ports, moves: chosen.moves, narrowing };
}
