// The API server's admission chain for a Pod CREATE, as a model whose steps carry the names of the
// Kubernetes components they mirror, so that the tests judge injection where it takes effect:
// 1. decoding, with the API's defaults (SetObjectDefaults_Pod) filled in;
// 2. the built-in mutating plugins: ServiceAccount (the account, and the token volume mounted into
//    every container and init container that does not already mount its path, unless automount is
//    off) and LimitRanger (a LimitRange's default requests and limits);
// 3. the mutating webhooks whose selectors match, in order, each answering through the injector's
//    own review code, its patch applied and the pod defaulted again;
// 4. when a webhook changed the pod, the built-in plugins again and every IfNeeded webhook whose last
//    look is stale reinvoked once (reinvocationPolicy);
// 5. validation by the chart's ValidatingAdmissionPolicy, once per binding that matches the pod,
//    evaluated by the model of its CEL.
// The cluster tier runs the same pods through a real API server, which wins where the two differ.
import { reviewPod } from '../../src/injection/webhook/review-pod.js';
import type { InjectionOptions } from '../../src/injection/options.js';
import type { EntitlementPolicy } from '../../src/injection/policy/entitlement-policy.js';
import type { OptIn } from '../../src/injection/pipeline/inject-pod.js';
import { boundRefusals, type BoundPolicy } from './admission-bindings.js';
import { applyPatch } from './json-patch.js';
import { selects, type Selector } from './label-selector.js';

type Json = Record<string, unknown>;
type Container = Json & { name: string; image?: string; volumeMounts?: Json[] };
export interface ChainPod {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Json & { containers: Container[]; initContainers?: Container[]; volumes?: Json[] };
}

export interface ChainWebhook {
  readonly name: string;
  /** The injector's path the webhook calls: how the pod asked. */
  readonly optIn: OptIn;
  readonly namespaceSelector: Selector;
  readonly objectSelector: Selector;
}

export interface ChainCluster {
  readonly namespace: string;
  readonly namespaceLabels?: Record<string, string>;
  /** The service account's own automount setting; the pod's wins. */
  readonly accountAutomount?: boolean;
  /** A LimitRange's container defaults in the namespace, if one exists. */
  readonly limitRange?: { readonly default?: Json; readonly defaultRequest?: Json };
  readonly webhooks: readonly ChainWebhook[];
  readonly injector: { readonly defaults: InjectionOptions; readonly policy?: EntitlementPolicy };
  readonly admissionPolicy?: BoundPolicy;
}

export type ChainResult =
  | { readonly allowed: true; readonly pod: ChainPod; readonly warnings: readonly string[] }
  | { readonly allowed: false; readonly by: 'webhook' | 'policy'; readonly messages: readonly string[] };

const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_VOLUME = 'kube-api-access-model';

/** What the API server makes of a Pod CREATE in this cluster. */
export function admitPod(input: ChainPod, cluster: ChainCluster): ChainResult {
  let pod = withApiDefaults(structuredClone(input));
  pod = builtInPlugins(pod, cluster);
  const seen = new Map<string, string>();
  const warnings: string[] = [];
  const callWebhooks = (onlyStale: boolean): ChainResult | null => {
    for (const webhook of cluster.webhooks.filter((w) => matches(w, pod, cluster))) {
      const before = JSON.stringify(pod);
      if (onlyStale && seen.get(webhook.name) === before) continue;
      const answer = reviewPod(
        {
          uid: 'model',
          kind: { kind: 'Pod' },
          operation: 'CREATE',
          namespace: cluster.namespace,
          object: pod,
        },
        cluster.injector.defaults,
        webhook.optIn,
        cluster.injector.policy,
      ).response;
      warnings.push(...(answer.warnings ?? []));
      if (!answer.allowed) return { allowed: false, by: 'webhook', messages: [answer.status?.message ?? ''] };
      if (answer.patch) {
        const operations = JSON.parse(Buffer.from(answer.patch, 'base64').toString()) as never;
        pod = withApiDefaults(applyPatch(pod, operations));
      }
      seen.set(webhook.name, JSON.stringify(pod));
    }
    return null;
  };
  const beforeWebhooks = JSON.stringify(pod);
  const refused = callWebhooks(false);
  if (refused) return refused;
  if (JSON.stringify(pod) !== beforeWebhooks) {
    pod = builtInPlugins(pod, cluster);
    const again = callWebhooks(true);
    if (again) return again;
  }
  if (cluster.admissionPolicy) {
    const messages = boundRefusals(cluster.admissionPolicy, {
      object: pod,
      namespace: cluster.namespace,
      ...(cluster.namespaceLabels ? { namespaceLabels: cluster.namespaceLabels } : {}),
    });
    if (messages.length > 0) return { allowed: false, by: 'policy', messages };
  }
  return { allowed: true, pod, warnings };
}

function matches(webhook: ChainWebhook, pod: ChainPod, cluster: ChainCluster): boolean {
  const namespaceLabels = { ...cluster.namespaceLabels, 'kubernetes.io/metadata.name': cluster.namespace };
  return (
    selects(webhook.namespaceSelector, namespaceLabels) && selects(webhook.objectSelector, pod.metadata.labels ?? {})
  );
}

const allContainers = (pod: ChainPod): Container[] => [...(pod.spec.initContainers ?? []), ...pod.spec.containers];

/** ServiceAccount, then LimitRanger, as the API server runs them on a CREATE. */
function builtInPlugins(pod: ChainPod, cluster: ChainCluster): ChainPod {
  const spec = pod.spec;
  if (typeof spec.serviceAccountName !== 'string' || spec.serviceAccountName === '')
    spec.serviceAccountName = 'default';
  const automount = (spec.automountServiceAccountToken as boolean | undefined) ?? cluster.accountAutomount ?? true;
  if (automount) {
    const volumes = (spec.volumes ??= []);
    const existing = volumes.find((v) => String(v.name).startsWith('kube-api-access-'));
    const name = existing ? String(existing.name) : TOKEN_VOLUME;
    let needed = false;
    for (const container of allContainers(pod)) {
      const mounts = (container.volumeMounts ??= []);
      if (mounts.some((m) => m.mountPath === TOKEN_PATH)) continue;
      mounts.push({ name, readOnly: true, mountPath: TOKEN_PATH });
      needed = true;
    }
    if (!existing && needed)
      volumes.push({
        name,
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
              },
            },
          ],
        },
      });
  }
  const limits = cluster.limitRange;
  if (limits)
    for (const container of allContainers(pod)) {
      const resources = ((container.resources as Json | undefined) ??= {});
      resources.limits = { ...limits.default, ...(resources.limits as Json | undefined) };
      resources.requests = { ...limits.defaultRequest, ...(resources.requests as Json | undefined) };
    }
  return pod;
}

/** The defaults the API server fills in when it decodes a Pod (SetObjectDefaults_Pod), those the rules read. */
export function withApiDefaults(pod: ChainPod): ChainPod {
  const spec = pod.spec;
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  spec.enableServiceLinks ??= true;
  for (const volume of spec.volumes ?? [])
    for (const kind of ['secret', 'configMap', 'projected'] as const) {
      const source = volume[kind] as Json | undefined;
      if (source) source.defaultMode ??= 420;
    }
  for (const container of allContainers(pod)) {
    container.terminationMessagePath ??= '/dev/termination-log';
    container.terminationMessagePolicy ??= 'File';
    const tag = /:([^/@]+)$/.exec(String(container.image ?? '').split('@')[0]!)?.[1];
    container.imagePullPolicy ??= tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
    for (const port of (container.ports as Json[] | undefined) ?? []) port.protocol ??= 'TCP';
    for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      const probe = container[kind] as Json | undefined;
      if (!probe) continue;
      probe.timeoutSeconds ??= 1;
      probe.periodSeconds ??= 10;
      probe.successThreshold ??= 1;
      probe.failureThreshold ??= 3;
      const httpGet = probe.httpGet as Json | undefined;
      if (httpGet) httpGet.scheme ??= 'HTTP';
    }
    const security = container.securityContext as Json | undefined;
    if (security) security.procMount ??= 'Default';
  }
  return pod;
}
