// What `kubectl get namespaces,pods,deployments,secrets,mutatingwebhookconfigurations,
// validatingadmissionpolicies,validatingadmissionpolicybindings -A -o json` prints, sorted by kind.
// Secrets arrive with their values; only their names, their data's key names and the one certificate a
// check needs (the injector's tls.crt) are kept, so no value can reach the output, a log or memory
// held after the read.
import { isRecord } from '../../../text/is-record.js';
import type { KubeObject } from '../../manifests/pod-templates.js';

export interface SecretSummary {
  readonly namespace: string;
  readonly name: string;
  readonly keys: readonly string[];
  /** The PEM of its `tls.crt`, kept only for the Secrets `keepCertificate` names. */
  readonly certificate?: string;
}

export interface ClusterInput {
  /** The kinds the input holds at least one object of: a check over a missing kind is not checked. */
  readonly kinds: ReadonlySet<string>;
  readonly namespaces: readonly KubeObject[];
  readonly pods: readonly KubeObject[];
  readonly deployments: readonly KubeObject[];
  readonly secrets: readonly SecretSummary[];
  readonly webhookConfigurations: readonly KubeObject[];
  readonly admissionPolicies: readonly KubeObject[];
  readonly policyBindings: readonly KubeObject[];
}

const KINDS = {
  Namespace: 'namespaces',
  Pod: 'pods',
  Deployment: 'deployments',
  MutatingWebhookConfiguration: 'webhookConfigurations',
  ValidatingAdmissionPolicy: 'admissionPolicies',
  ValidatingAdmissionPolicyBinding: 'policyBindings',
} as const;

/** Every kind `check` reads; an input with none of them gives it nothing to check. */
export const CHECKED_KINDS: readonly string[] = [...Object.keys(KINDS), 'Secret'];

/** A field as text, empty when it is not text. */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An object's metadata as a plain record (labels, owner references...), empty when it has none. */
export const metadataOf = (object: KubeObject): Record<string, unknown> =>
  isRecord(object.metadata) ? object.metadata : {};

/** Every object of the values, lists flattened. */
export function objectsOf(value: unknown): KubeObject[] {
  if (!isRecord(value)) return [];
  if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items))
    return value.items.flatMap(objectsOf);
  return [value];
}

/**
 * @param keepCertificate which Secrets' `tls.crt` to keep (the injector's serving certificate), decided
 *   from the other objects once they are read
 */
export function readClusterInput(
  values: readonly unknown[],
  keepCertificate: (objects: Omit<ClusterInput, 'secrets'>) => (namespace: string, name: string) => boolean,
): ClusterInput {
  const kinds = new Set<string>();
  const sorted: Record<(typeof KINDS)[keyof typeof KINDS], KubeObject[]> = {
    namespaces: [],
    pods: [],
    deployments: [],
    webhookConfigurations: [],
    admissionPolicies: [],
    policyBindings: [],
  };
  const secrets: KubeObject[] = [];
  for (const object of values.flatMap(objectsOf)) {
    if (typeof object.kind !== 'string') continue;
    kinds.add(object.kind);
    if (object.kind === 'Secret') secrets.push(object);
    else if (object.kind in KINDS) sorted[KINDS[object.kind as keyof typeof KINDS]].push(object);
  }
  const rest = { kinds, ...sorted };
  const keep = keepCertificate(rest);
  return { ...rest, secrets: secrets.map((secret) => summary(secret, keep)) };
}

function summary(secret: KubeObject, keep: (namespace: string, name: string) => boolean): SecretSummary {
  const namespace = typeof secret.metadata?.namespace === 'string' ? secret.metadata.namespace : '';
  const name = typeof secret.metadata?.name === 'string' ? secret.metadata.name : '';
  const data = isRecord(secret.data) ? secret.data : {};
  const pem = keep(namespace, name) && typeof data['tls.crt'] === 'string' ? data['tls.crt'] : undefined;
  return {
    namespace,
    name,
    keys: Object.keys(data).sort(),
    ...(pem === undefined ? {} : { certificate: Buffer.from(pem, 'base64').toString('utf8') }),
  };
}
