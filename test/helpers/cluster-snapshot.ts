// A cluster as `kubectl get namespaces,pods,deployments,secrets,mutatingwebhookconfigurations,
// validatingadmissionpolicies,validatingadmissionpolicybindings -A -o json` prints it, made from what the
// real tools make: the chart as helm renders it (a CA and a serving certificate it generates, the
// webhook configuration trusting that CA), the injector's pods from its Deployment, and application
// pods as `inject` makes them, with the status a kubelet reports.
import { parse, parseAllDocuments } from 'yaml';
import { runCli } from './cli-process.js';
import { kubeTool } from './k8s-tools.js';
import { runTool } from './tools.js';

export type Json = Record<string, unknown>;

export const KEYSTORE_VALUE = 'eyJwcm9maWxlcyI6eyJkZWZhdWx0Ijp7fX19-not-for-output';
const DIGEST = `sha256:${'b'.repeat(64)}`;

export function renderChart(...values: string[]): Json[] {
  const args = ['template', 'sfd-sidecar', 'helm/sfd-sidecar', '--namespace', 'sfd-system'];
  for (const value of ['keystore.existingSecret=sfd-keys', 'certificates.issuer=chart', ...values])
    args.push('--set', value);
  const result = runTool(kubeTool('helm'), args);
  if (result.code !== 0) throw new Error(result.stderr);
  return parseAllDocuments(result.stdout)
    .map((d) => d.toJS() as Json | null)
    .filter((o): o is Json => o !== null && typeof o === 'object')
    .map((o) => ({ ...o, metadata: { namespace: 'sfd-system', ...(o.metadata as Json) } }));
}

const ready = (images: Record<string, string>) => ({
  phase: 'Running',
  conditions: [{ type: 'Ready', status: 'True' }],
  containerStatuses: Object.entries(images).map(([name, image]) => ({
    name,
    image,
    imageID: `${image.replace(/:[^:/]+$/, '')}@${DIGEST}`,
    ready: true,
  })),
});

/** The injector's pods, as its Deployment's ReplicaSet makes them. */
export function injectorPods(deployment: Json, count: number, isReady = true): Json[] {
  const template = (deployment.spec as Json).template as Json;
  const spec = template.spec as { containers: { name: string; image: string }[] };
  return Array.from({ length: count }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...(template.metadata as Json), name: `sfd-sidecar-7c9d8b6f5-${i}abcd`, namespace: 'sfd-system' },
    spec: spec,
    status: isReady
      ? ready(Object.fromEntries(spec.containers.map((c) => [c.name, c.image])))
      : { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] },
  }));
}

/** An application pod of Deployment `app` in the namespace, injected by `inject` when `inject` is set. */
export async function appPod(
  name: string,
  namespace: string,
  options: { inject?: boolean; labels?: Record<string, string>; image?: string } = {},
): Promise<Json> {
  const pod: Json = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: { app: name, ...options.labels },
      // A Deployment's pod is named after its ReplicaSet, which is named after the Deployment.
      ownerReferences: [{ kind: 'ReplicaSet', name: name.replace(/-[a-z0-9]+$/, '') }],
    },
    spec: { containers: [{ name: 'app', image: 'example/app:1' }] },
  };
  let injected = pod;
  if (options.inject) {
    const args = [
      'inject',
      '--keystore-secret',
      'sfd-keys',
      '--image',
      options.image ?? 'ghcr.io/sfd-sidecar/sfd-sidecar:0.2.0',
    ];
    const result = await runCli([...args, '-'], { input: JSON.stringify(pod) });
    if (result.code !== 0) throw new Error(result.stderr);
    injected = parse(result.stdout) as Json;
  }
  const spec = injected.spec as {
    initContainers?: { name: string; image: string }[];
    containers: { name: string; image: string }[];
  };
  return {
    ...injected,
    status: {
      ...ready(Object.fromEntries(spec.containers.map((c) => [c.name, c.image]))),
      initContainerStatuses: (spec.initContainers ?? []).map((c) => ({
        name: c.name,
        image: c.image,
        imageID: `${c.image.replace(/:[^:/]+$/, '')}@${DIGEST}`,
      })),
    },
  };
}

export const namespace = (name: string, labels: Record<string, string> = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
});

export const keystoreSecret = (namespaceName: string, keys: string[] = ['keystore.json']): Json => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'Opaque',
  metadata: { name: 'sfd-keys', namespace: namespaceName },
  data: Object.fromEntries(keys.map((key) => [key, Buffer.from(KEYSTORE_VALUE).toString('base64')])),
});

/** The objects as the List kubectl prints. */
export const asList = (objects: Json[]): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects, metadata: { resourceVersion: '' } }, null, 4);

/** Every object of a kind the check reads, from the chart's render. */
export function chartObjects(rendered: Json[]): Json[] {
  const kinds = new Set([
    'Deployment',
    'Secret',
    'MutatingWebhookConfiguration',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding',
  ]);
  return rendered.filter((o) => kinds.has(String(o.kind)));
}
