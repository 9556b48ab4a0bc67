// helm and kubectl for the tests, and validation of rendered objects against the Kubernetes schemas of
// the kubernetes-models packages.
import { Ajv } from 'ajv';
import { ClusterSecretStore } from '@kubernetes-models/external-secrets/external-secrets.io/v1beta1/ClusterSecretStore';
import { ExternalSecret } from '@kubernetes-models/external-secrets/external-secrets.io/v1beta1/ExternalSecret';
import { SecretStore } from '@kubernetes-models/external-secrets/external-secrets.io/v1beta1/SecretStore';
import { PodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import {
  MutatingWebhookConfiguration, //
} from 'kubernetes-models/admissionregistration.k8s.io/v1/MutatingWebhookConfiguration';
import { DaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { ReplicaSet } from 'kubernetes-models/apps/v1/ReplicaSet';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from 'kubernetes-models/admissionregistration.k8s.io/v1';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { kubeTool as findKubeTool, type KubeToolName } from '../../tools/kube-tools.js';
import { REPO_ROOT } from './tools.js';

/** The path of helm or kubectl (tools/kube-tools.ts). */
export const kubeTool = (name: KubeToolName): string => findKubeTool(name, REPO_ROOT);

type Model = { validate(): void };
const MODELS: Record<string, new (data: never) => Model> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'apps/v1/DaemonSet': DaemonSet,
  'apps/v1/ReplicaSet': ReplicaSet,
  'batch/v1/Job': Job,
  'batch/v1/CronJob': CronJob,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'v1/ServiceAccount': ServiceAccount,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': ValidatingAdmissionPolicy,
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': ValidatingAdmissionPolicyBinding,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
  'rbac.authorization.k8s.io/v1/ClusterRole': ClusterRole,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ClusterRoleBinding,
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': MutatingWebhookConfiguration,
  'v1/Service': Service,
  'v1/Secret': Secret,
  'v1/ConfigMap': ConfigMap,
  'v1/Pod': Pod,
  'monitoring.coreos.com/v1/PodMonitor': PodMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
  'external-secrets.io/v1beta1/ExternalSecret': ExternalSecret,
  'external-secrets.io/v1beta1/SecretStore': SecretStore,
  'external-secrets.io/v1beta1/ClusterSecretStore': ClusterSecretStore,
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
const SAME_SCHEMA_AS: Record<string, string> = {
  'external-secrets.io/v1/ExternalSecret': 'external-secrets.io/v1beta1/ExternalSecret',
  'external-secrets.io/v1/SecretStore': 'external-secrets.io/v1beta1/SecretStore',
  'external-secrets.io/v1/ClusterSecretStore': 'external-secrets.io/v1beta1/ClusterSecretStore',
};

/**
 * cert-manager's Certificate and Issuer, checked against the parts of their CRD schemas the chart uses
 * (cert-manager.io/v1: required fields, types, one issuer kind): the model package for them would make
 * the install heavier than the rest of the Kubernetes models together.
 */
const CERT_MANAGER: Record<string, object> = {
  'cert-manager.io/v1/Certificate': {
    type: 'object',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        required: ['secretName', 'issuerRef'],
        additionalProperties: false,
        properties: {
          secretName: { type: 'string', minLength: 1 },
          dnsNames: { type: 'array', items: { type: 'string' } },
          duration: { type: 'string' },
          commonName: { type: 'string' },
          renewBefore: { type: 'string' },
          isCA: { type: 'boolean' },
          issuerRef: {
            type: 'object',
            required: ['name'],
            additionalProperties: false,
            properties: {
              name: { type: 'string' },
              kind: { enum: ['Issuer', 'ClusterIssuer'] },
              group: { type: 'string' },
            },
          },
        },
      },
    },
  },
  'cert-manager.io/v1/Issuer': {
    type: 'object',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        minProperties: 1,
        maxProperties: 1,
        properties: { selfSigned: { type: 'object' }, ca: { type: 'object', required: ['secretName'] } },
        additionalProperties: false,
      },
    },
  },
};
const ajv = new Ajv({ allErrors: true, strict: false });

/** Throws when the object does not match its Kubernetes schema, or its kind is not one we know. */
export function validateObject(object: K8sObject): void {
  const key = `${object.apiVersion}/${object.kind}`;
  const crd = CERT_MANAGER[key];
  if (crd) {
    const validate = ajv.compile(crd);
    if (!validate(object)) throw new Error(`${key}: ${ajv.errorsText(validate.errors)}`);
    return;
  }
  const modelKey = SAME_SCHEMA_AS[key] ?? key;
  const Model = MODELS[modelKey];
  if (Model && modelKey !== key) {
    const [group, version] = modelKey.split('/');
    return new Model({ ...object, apiVersion: `${group}/${version}` } as never).validate();
  }
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  new Model(object as never).validate();
}
