// The rules a pod is judged by, in order: each is a named function of the pod's facts that returns the
// reason it fails (with a sentence per problem), or null when it holds. Every pod goes through every
// rule, a pod that already carries a sidecar included (then the rules judge the sidecar it carries). A
// new refusal is one rule here and one row in reasons.ts.
import { quoteValue } from '../../config/quote-value.js';
import {
  ASKING_VALUES,
  asks,
  DECLINING_VALUES,
  declines,
  INJECT_LABEL,
  INJECTED_VOLUMES,
  KEYSTORE_VOLUME,
  PROFILE_FILE_SUFFIX,
} from '../contract.js';
import { isRecord } from '../../text/is-record.js';
import type { Volume } from '../pod.js';
import { entitlementProblem, grantedOperations, type EntitlementPolicy } from '../policy/entitlement-policy.js';
import { sameOperationItem } from '../../operations/operation-rules.js';
import { operationsNarrowing } from './operations-narrowing.js';
import { annotationOf, type InjectionOptions } from '../options.js';
import type { PodFacts } from './facts.js';
import { keyIsolationProblems } from './key-isolation.js';
import { optionProblems } from './option-problems.js';
import type { ChosenPorts } from './choose-ports.js';
import type { ReasonCode } from './reasons.js';
import { podResourceProblems } from './pod-resources.js';
import { repositoryOf, sidecarDeviations } from './sidecar-deviations.js';
import { sidecarResources } from '../sidecar-resources.js';
import { windowsOnly } from './windows-pod.js';
import { usedPorts } from './used-ports.js';
import { SETTINGS } from '../../config/settings.js';

/** The values the opt-in label may take, as a message quotes them. */
const LABEL_VALUES = [...ASKING_VALUES, ...DECLINING_VALUES].map((v) => `"${v}"`).join(', ');

export interface Finding {
  readonly reason: ReasonCode;
  readonly problems: readonly string[];
}

/** What the rules weigh besides the pod: the defaults, the policy in force, and where the pod is. */
export interface RuleContext {
  readonly defaults: InjectionOptions;
  readonly entitlement?: {
    readonly policy: EntitlementPolicy;
    /** The pod's object, as messages name it. */
    readonly object: string;
    readonly namespace: string;
  };
  /** The ports the sidecar would take (fresh injections only), or why none fit. */
  readonly ports: { ok: true; ports: ChosenPorts; moves: string[] } | { ok: false; problem: string } | null;
}

export type Rule = (facts: PodFacts, context: RuleContext) => Finding | null;

const finding = (reason: ReasonCode, problems: readonly string[]): Finding | null =>
  problems.length === 0 ? null : { reason, problems };

export function asksForTheSidecar(facts: PodFacts): Finding | null {
  const { value, carrier } = facts.flag;
  if (declines(value)) return finding('opted-out', [`${carrier} ${INJECT_LABEL}: ${quoteValue(value!)}`]);
  if (value !== undefined && !asks(value))
    return finding('annotation', [
      `${carrier} ${INJECT_LABEL}: must be ${LABEL_VALUES} ` + `(got ${quoteValue(value)})`,
    ]);
  if (value === undefined && facts.optIn === 'pod-asks')
    return finding('not-asked', [`not labelled ${INJECT_LABEL}: "true"`]);
  return null;
}

export function carriesOnlyWhatInjectionMakes(facts: PodFacts, context: RuleContext): Finding | null {
  const carried = facts.carried;
  if (carried === null) return null;
  const repository = repositoryOf(context.defaults.image);
  const expected = {
    repository,
    ownImage: context.defaults.image,
    minimumVersion: context.defaults.minimumVersion,
    keystoreSecrets: facts.isolation.keystoreSecrets,
    volumes: facts.template.spec.volumes ?? [],
  };
  const problems = sidecarDeviations(carried.container, expected).map((p) => `its sidecar differs: ${p}`);
  if (!carried.profiles.ok) problems.push(`its sidecar's profiles cannot be judged: ${carried.profiles.why}`);
  else if (context.defaults.keystoreLayout === 'per-profile')
    problems.push(...perProfileFileProblems(facts.template.spec.volumes ?? [], carried.profiles.names));
  return finding('carried-sidecar', problems);
}

/**
 * With the per-profile layout a sidecar's key store volume holds exactly the files of the profiles it
 * signs with, as injection writes it: the whole Secret, or another profile's file, would put that
 * profile's keys in a pod not entitled to them.
 */
function perProfileFileProblems(volumes: readonly Volume[], profiles: readonly string[]): string[] {
  const volume = volumes.find((v) => v.name === KEYSTORE_VOLUME);
  const items = volume?.secret?.items;
  const wanted = profiles.map((profile) => `${profile}${PROFILE_FILE_SUFFIX}`);
  const listed = Array.isArray(items) ? items : [];
  const exact =
    listed.length === wanted.length &&
    wanted.every((file) => listed.some((item) => isRecord(item) && item.key === file && item.path === file));
  return exact
    ? []
    : [`its key store volume does not list exactly the files of the profiles it signs with (${wanted.join(', ')})`];
}

export function runsOnLinux(facts: PodFacts): Finding | null {
  const windows = windowsOnly(facts.template.spec);
  return windows === null
    ? null
    : finding('windows', [`it runs on Windows nodes (${windows}); the sidecar's image is Linux-only`]);
}

export function keepsItsOwnNetwork(facts: PodFacts): Finding | null {
  if (facts.template.spec.hostNetwork !== true) return null;
  return finding('host-network', [
    "the pod uses the host network: there 127.0.0.1 is the node's, and every host-network pod on the node " +
      'could sign with the key',
  ]);
}

export function annotationsAreReadable(facts: PodFacts): Finding | null {
  if (facts.carried !== null) return null;
  const { envSecret } = facts.options;
  // A setting that cannot be parsed is repeated in the sidecar's log: never read one from the keys.
  const fromKeys =
    envSecret !== null && facts.isolation.keystoreSecrets.includes(envSecret)
      ? [`annotation ${annotationOf('envSecret')}: ${envSecret} is a key store Secret; settings never come from one`]
      : [];
  return finding('annotation', [
    ...facts.optionProblems,
    ...optionProblems(facts.options, facts.annotations),
    ...fromKeys,
  ]);
}

export function entitledToItsProfiles(facts: PodFacts, context: RuleContext): Finding | null {
  const { entitlement } = context;
  if (facts.profiles === null) return null;
  if (entitlement !== undefined) {
    const workload = { ...entitlement, serviceAccount: facts.serviceAccount };
    const denied = entitlementProblem(entitlement.policy, workload, facts.profiles);
    if (denied !== null) return finding('not-entitled', [denied]);
  }
  if (facts.carried !== null) return finding('not-entitled', carriedOperationProblems(facts, entitlement));
  return finding('not-entitled', operationsNarrowing(facts, facts.profiles, entitlement).problems);
}

/** How the operations a carried sidecar may sign go beyond what its entitlements grant. */
function carriedOperationProblems(facts: PodFacts, entitlement: RuleContext['entitlement']): string[] {
  if (entitlement === undefined) return [];
  const carried = facts.carried!.narrowing;
  return (facts.profiles ?? []).flatMap((profile) => {
    const grant = grantedOperations(entitlement.policy, entitlement.namespace, facts.serviceAccount, profile);
    if (grant === null || grant === undefined) return [];
    const limit = carried?.get(profile);
    const within =
      limit !== undefined &&
      limit !== null &&
      (limit.enforce || !grant.enforce) &&
      limit.items.every((item) => grant.items.some((have) => sameOperationItem(have, item)));
    return within
      ? []
      : [`its sidecar may sign operations of profile ${profile} the entitlement policy does not grant`];
  });
}

export function keepsKeysFromTheApplication(facts: PodFacts): Finding | null {
  const spec = facts.template.spec;
  const taken =
    facts.carried === null
      ? (spec.volumes ?? [])
          .filter((v) => INJECTED_VOLUMES.includes(v.name))
          .map((v) => `the pod already has a volume named ${v.name}`)
      : [];
  if (taken.length > 0) return finding('key-access', taken);
  return finding('key-access', keyIsolationProblems({ spec, ...facts.isolation }));
}

export function completesWithItsSidecar(facts: PodFacts): Finding | null {
  const restart = facts.template.spec.restartPolicy;
  if (facts.mode !== 'classic' || (restart !== 'Never' && restart !== 'OnFailure')) return null;
  return finding('job-in-classic-mode', [
    `the pod runs to completion (restartPolicy ${restart}), and a classic sidecar never exits, so it would ` +
      'never complete: use the native mode (sfd-sidecar.io/mode: native, Kubernetes 1.29+)',
  ]);
}

export function fitsPodResources(facts: PodFacts): Finding | null {
  if (facts.carried !== null) return null;
  return finding('pod-resources', podResourceProblems(facts.template.spec, sidecarResources(facts.options)));
}

export function findsFreePorts(facts: PodFacts, context: RuleContext): Finding | null {
  if (facts.carried !== null) return finding('ports', carriedPortClashes(facts));
  if (context.ports === null || context.ports.ok) return null;
  return finding('ports', [context.ports.problem]);
}

/** The ports a carried sidecar listens on that another container of the pod uses too. */
function carriedPortClashes(facts: PodFacts): string[] {
  const carried = facts.carried!;
  const others = { ...facts.template.spec, initContainers: [], containers: [...carried.others] };
  const used = usedPorts(others);
  return [SETTINGS.listen.env, SETTINGS.adminListen.env].flatMap((name) => {
    const value = (carried.container.env ?? []).filter((e) => e.name === name).at(-1)?.value;
    const port = Number(/:(\d{1,5})$/.exec(value ?? '')?.[1]);
    const user = used.get(port);
    return user === undefined ? [] : [`its sidecar listens on ${port} (${name}), which is ${user}`];
  });
}

/** The rules, in the order a pod meets them: the first that fails decides. */
export const RULES: readonly Rule[] = [
  asksForTheSidecar,
  carriesOnlyWhatInjectionMakes,
  runsOnLinux,
  keepsItsOwnNetwork,
  annotationsAreReadable,
  entitledToItsProfiles,
  keepsKeysFromTheApplication,
  completesWithItsSidecar,
  fitsPodResources,
  findsFreePorts,
];
