// `sfd-sidecar check`'s checks, in the order an operator reads them: the injector, its webhook and CA
// bundle, the admission policy, the entitlement policy, the key store Secrets, the opt-in labels, then
// the pods. Each is a function of the cluster's objects that returns its lines; pure, with the time given.
import { readClusterInput, type ClusterInput } from './cluster/cluster-input.js';
import { findInjectors, type InjectorInstall } from './cluster/injector-install.js';
import { checkAdmissionPolicy } from './checks/check-admission-policy.js';
import { checkEntitlements } from './checks/check-entitlements.js';
import { checkInjector } from './checks/check-injector.js';
import { checkKeyStores, keyStoreNeeds } from './checks/check-key-stores.js';
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

/** A Secret whose data a check reads: the names of its keys, and its `tls.crt` when `certificate`. */
export interface SecretRead {
  readonly namespace: string;
  readonly name: string;
  readonly certificate: boolean;
}

/**
 * The Secrets whose data the checks read, decided from the other objects: the key stores the pods mount
 * (the names of their keys) and each injector's serving certificate. Every other Secret is checked by
 * its name alone, so a reader of the cluster needs no more than their metadata.
 */
export function secretsCheckReads(values: readonly unknown[]): SecretRead[] {
  const cluster = readClusterInput(values, () => () => false);
  const injectors = findInjectors(cluster.deployments, cluster.pods);
  const defaults = injectors[0]?.defaults;
  const keyStores = defaults === undefined ? [] : [...keyStoreNeeds(cluster, defaults)];
  const reads = [
    ...injectors.flatMap((i) =>
      i.tlsSecret ? [{ namespace: i.namespace, name: i.tlsSecret, certificate: true }] : [],
    ),
    ...keyStores.flatMap(([namespace, needs]) => needs.map((n) => ({ namespace, name: n.secret, certificate: false }))),
  ];
  return reads.filter(
    (read, index) =>
      reads.findIndex((other) => other.namespace === read.namespace && other.name === read.name) === index,
  );
}
