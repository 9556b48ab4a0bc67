// `sfd-sidecar check`'s checks, in the order an operator reads them: the injector, its webhook and CA
// bundle, the admission policy, the entitlement policy, the key store Secrets, the opt-in labels, then
// the pods. Each is a function of the cluster's objects that returns its lines; pure, with the time given.
import { readClusterInput, type ClusterInput } from './cluster/cluster-input.js';
import { findInjectors, type InjectorInstall } from './cluster/injector-install.js';
import { checkAdmissionPolicy } from './checks/check-admission-policy.js';
import { checkEntitlements } from './checks/check-entitlements.js';
import { checkInjector } from './checks/check-injector.js';
import { checkKeyStores } from './checks/check-key-stores.js';
import { checkLabelValues } from './checks/check-label-values.js';
import { checkPods } from './checks/check-pods.js';
import type { CheckResult } from './checks/check-result.js';
import { checkWebhook } from './checks/check-webhook.js';

export type { CheckResult, CheckStatus } from './checks/check-result.js';

type Check = (cluster: ClusterInput, injectors: readonly InjectorInstall[], now: number) => CheckResult[];

const CHECKS: readonly Check[] = [
  checkInjector,
  checkWebhook,
  checkAdmissionPolicy,
  (_, injectors) => checkEntitlements(injectors),
  checkKeyStores,
  checkLabelValues,
  checkPods,
];

export interface ClusterReport {
  readonly results: readonly CheckResult[];
  readonly injectors: readonly InjectorInstall[];
  readonly cluster: ClusterInput;
}

export function checkCluster(values: readonly unknown[], now: number): ClusterReport {
  const cluster = readClusterInput(values, (objects) => {
    const injectors = findInjectors(objects.deployments, objects.pods);
    return (namespace, name) => injectors.some((i) => i.namespace === namespace && i.tlsSecret === name);
  });
  const injectors = findInjectors(cluster.deployments, cluster.pods);
  return { results: CHECKS.flatMap((check) => check(cluster, injectors, now)), injectors, cluster };
}
