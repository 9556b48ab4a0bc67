// The kinds the commands read from an API server: where each is listed, whether it lives in a namespace,
// and the kind and apiVersion kubectl writes on each item of its list (the API server's list leaves
// them out).

export interface KubeResource {
  /** The resource, as kubectl names it. */
  readonly resource: string;
  /** The path of its group and version. */
  readonly prefix: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

const core = (resource: string, kind: string, namespaced: boolean): KubeResource => ({
  resource,
  prefix: '/api/v1',
  apiVersion: 'v1',
  kind,
  namespaced,
});
const grouped = (group: string, resource: string, kind: string, namespaced: boolean): KubeResource => ({
  resource,
  prefix: `/apis/${group}/v1`,
  apiVersion: `${group}/v1`,
  kind,
  namespaced,
});

export const RESOURCES = {
  namespaces: core('namespaces', 'Namespace', false),
  pods: core('pods', 'Pod', true),
  secrets: core('secrets', 'Secret', true),
  deployments: grouped('apps', 'deployments', 'Deployment', true),
  statefulsets: grouped('apps', 'statefulsets', 'StatefulSet', true),
  daemonsets: grouped('apps', 'daemonsets', 'DaemonSet', true),
  mutatingwebhookconfigurations: grouped(
    'admissionregistration.k8s.io',
    'mutatingwebhookconfigurations',
    'MutatingWebhookConfiguration',
    false,
  ),
  validatingadmissionpolicies: grouped(
    'admissionregistration.k8s.io',
    'validatingadmissionpolicies',
    'ValidatingAdmissionPolicy',
    false,
  ),
  validatingadmissionpolicybindings: grouped(
    'admissionregistration.k8s.io',
    'validatingadmissionpolicybindings',
    'ValidatingAdmissionPolicyBinding',
    false,
  ),
} as const satisfies Record<string, KubeResource>;

/** The path that lists a resource, in one namespace when it lives in one and `namespace` is given. */
export function listPath(resource: KubeResource, namespace: string | undefined): string {
  return resource.namespaced && namespace !== undefined
    ? `${resource.prefix}/namespaces/${encodeURIComponent(namespace)}/${resource.resource}`
    : `${resource.prefix}/${resource.resource}`;
}

/** The path of one object. */
export function objectPath(resource: KubeResource, namespace: string | undefined, name: string): string {
  const scope = resource.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${resource.prefix}${scope}/${resource.resource}/${encodeURIComponent(name)}`;
}
