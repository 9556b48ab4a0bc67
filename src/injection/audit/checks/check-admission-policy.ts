// The chart's key store admission policy and its one binding, which judges every pod and denies: without
// them, a pod that never asks for the sidecar can mount the key store, and a look-alike sidecar is
// admitted. The entitlement policy's grants are part of the policy itself, so there is nothing else to bind.
import { isRecord } from '../../../text/is-record.js';
import type { KubeObject } from '../../manifests/pod-templates.js';
import type { ClusterInput } from '../cluster/cluster-input.js';
import type { InjectorInstall } from '../cluster/injector-install.js';
import { notChecked, type CheckResult } from './check-result.js';

const CHECK = 'admission policy';

interface Bound {
  readonly name: string;
  readonly bindings: readonly KubeObject[];
  readonly fix: string;
}

const specOf = (object: KubeObject): Record<string, unknown> => (isRecord(object.spec) ? object.spec : {});
const nameOf = (object: KubeObject): string => (typeof object.metadata?.name === 'string' ? object.metadata.name : '');
const judgesEveryPod = (binding: KubeObject): boolean => !isRecord(specOf(binding).matchResources);
const actionsOf = (binding: KubeObject): unknown[] => {
  const actions = specOf(binding).validationActions;
  return Array.isArray(actions) ? actions : [];
};
const names = (bindings: readonly KubeObject[]): string => bindings.map(nameOf).join(', ');

/** The rules in order: the first that finds something wrong gives the line. */
const RULES: readonly ((bound: Bound) => CheckResult | null)[] = [
  function unbound({ name, bindings, fix }) {
    if (bindings.length > 0) return null;
    return { check: CHECK, status: 'fail', detail: `the policy ${name} has no binding, so it is not in force`, fix };
  },
  function notEveryPod({ name, bindings, fix }) {
    if (bindings.some(judgesEveryPod)) return null;
    return {
      check: CHECK,
      status: 'fail',
      detail:
        `no binding of ${name} judges every pod (${names(bindings)} match some pods only): ` +
        'a pod that does not ask for the sidecar may mount the key store Secret',
      fix,
    };
  },
  function notDenying({ name, bindings, fix }) {
    const lenient = bindings.filter((b) => !actionsOf(b).includes('Deny'));
    if (lenient.length === 0) return null;
    const actions = actionsOf(lenient[0]!).join(', ') || 'none';
    return {
      check: CHECK,
      status: 'warn',
      detail: `the binding ${names(lenient)} of ${name} does not deny (validationActions ${actions})`,
      fix,
    };
  },
];

function described({ name, bindings }: Bound): string {
  return `${name} is bound and denies: ${names(bindings.filter(judgesEveryPod))} judges every pod`;
}

export function checkAdmissionPolicy(cluster: ClusterInput, injectors: readonly InjectorInstall[]): CheckResult[] {
  const missing = notChecked(CHECK, ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'], cluster.kinds);
  if (missing.length > 0) return missing;
  return injectors.map((injector) => {
    const name = `${injector.name}-keystore-mounts`;
    const fix =
      `helm upgrade RELEASE -n ${injector.namespace} --reuse-values --set admissionPolicy.enabled=true ` +
      '(Kubernetes 1.30+)';
    const policy = cluster.admissionPolicies.find((p) => p.metadata?.name === name);
    if (policy === undefined)
      return {
        check: CHECK,
        status: 'fail',
        detail: `no ValidatingAdmissionPolicy ${name}: any pod may mount the key store Secret`,
        fix,
      };
    const bindings = cluster.policyBindings.filter((b) => specOf(b).policyName === name);
    const bound = { name, bindings, fix };
    for (const rule of RULES) {
      const found = rule(bound);
      if (found) return found;
    }
    return { check: CHECK, status: 'ok', detail: described(bound) };
  });
}
