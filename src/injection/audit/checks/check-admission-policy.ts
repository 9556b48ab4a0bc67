// The chart's key store admission policy and its binding: without them, a pod that never asks for the
// sidecar can mount the key store, and a look-alike sidecar is admitted.
import { isRecord } from '../../../text/is-record.js';
import type { ClusterInput } from '../cluster/cluster-input.js';
import type { InjectorInstall } from '../cluster/injector-install.js';
import { notChecked, type CheckResult } from './check-result.js';

const CHECK = 'admission policy';

export function checkAdmissionPolicy(cluster: ClusterInput, injectors: readonly InjectorInstall[]): CheckResult[] {
  const missing = notChecked(CHECK, ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'], cluster.kinds);
  if (missing.length > 0) return missing;
  return injectors.map((injector) => {
    const name = `${injector.name}-keystore-mounts`;
    const fix =
      `helm upgrade RELEASE -n ${injector.namespace} --reuse-values --set admissionPolicy.enabled=true ` +
      '(Kubernetes 1.30+)';
    if (!cluster.admissionPolicies.some((p) => p.metadata?.name === name))
      return {
        check: CHECK,
        status: 'fail',
        detail: `no ValidatingAdmissionPolicy ${name}: any pod may mount the key store Secret`,
        fix,
      };
    const binding = cluster.policyBindings.find((b) => isRecord(b.spec) && b.spec.policyName === name);
    if (binding === undefined)
      return { check: CHECK, status: 'fail', detail: `the policy ${name} has no binding, so it is not in force`, fix };
    const actions =
      isRecord(binding.spec) && Array.isArray(binding.spec.validationActions) ? binding.spec.validationActions : [];
    if (!actions.includes('Deny'))
      return {
        check: CHECK,
        status: 'warn',
        detail: `the binding of ${name} does not deny (validationActions ${actions.join(', ') || 'none'})`,
        fix,
      };
    return { check: CHECK, status: 'ok', detail: `${name} is bound and denies` };
  });
}
