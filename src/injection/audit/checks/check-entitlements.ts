// Whether an entitlement policy is in force: without one, every pod that asks may sign as any profile
// of its namespace's key store.
import type { InjectorInstall } from '../cluster/injector-install.js';
import type { CheckResult } from './check-result.js';

const CHECK = 'entitlement policy';

export function checkEntitlements(injectors: readonly InjectorInstall[]): CheckResult[] {
  return injectors.map((injector) =>
    injector.policyInForce
      ? {
          check: CHECK,
          status: 'ok',
          detail: `${injector.namespace}/${injector.name} decides by an entitlement policy`,
        }
      : {
          check: CHECK,
          status: 'warn',
          detail:
            `${injector.namespace}/${injector.name} has no entitlement policy: any pod that asks may use ` +
            'any profile',
          fix:
            `helm upgrade RELEASE -n ${injector.namespace} --reuse-values -f entitlements.yaml ` +
            '(policy.entitlements)',
        },
  );
}
