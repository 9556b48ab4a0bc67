// What `check` and `audit` read from the API server themselves, as `kubectl get ... -o json` would print
// it, so that the same checks run on it: one List per kind, each item with its kind and apiVersion.
// Secrets are listed as their metadata only; the data of the few a check reads (the key stores, for the
// names of their keys, and the injector's serving certificate) comes by a GET of each, and only the
// names of its keys and that certificate are kept. No Secret's value is kept, printed or logged.
import { isRecord } from '../../../text/is-record.js';
import { secretsCheckReads, type SecretRead } from '../cluster-checks.js';
import { KubeAccessError, type KubeAsk } from './kube-access-error.js';
import type { KubeApi } from './kube-api.js';
import { listPath, objectPath, RESOURCES, type KubeResource } from './kube-resources.js';

type Json = Record<string, unknown>;

/** The objects of one kind, as kubectl lists them. */
export interface KubeList {
  readonly apiVersion: 'v1';
  readonly kind: 'List';
  readonly items: readonly Json[];
}

/** Items a page of a list holds at most: the size kubectl asks for. */
const PAGE = 500;
/** What kubectl apply keeps on an object: a Secret's whole former manifest, values included. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** Secrets as their metadata only, in the newest form the API server serves first. */
const METADATA_ONLY = ['v1', 'v1beta1'].map(
  (version) => `application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=${version}`,
);
const NOT_ACCEPTABLE = 406;

/** Everything `check` reads: the kinds it checks, Secrets as above. */
export async function readClusterForCheck(api: KubeApi): Promise<KubeList[]> {
  const lists = await Promise.all(
    [
      RESOURCES.namespaces,
      RESOURCES.pods,
      RESOURCES.deployments,
      RESOURCES.mutatingwebhookconfigurations,
      RESOURCES.validatingadmissionpolicies,
      RESOURCES.validatingadmissionpolicybindings,
    ].map((resource) => listOf(api, resource, undefined, false)),
  );
  const secrets = await secretMetadata(api);
  const listed = new Set(secrets.map((s) => keyOf(textOf(s.metadata, 'namespace'), textOf(s.metadata, 'name'))));
  const reads = secretsCheckReads(lists).filter((read) => listed.has(keyOf(read.namespace, read.name)));
  const read = new Map<string, Json>();
  for (const secret of await Promise.all(reads.map((r) => secretKeys(api, r))))
    read.set(keyOf(textOf(secret.metadata, 'namespace'), textOf(secret.metadata, 'name')), secret);
  const items = secrets.map(
    (secret) => read.get(keyOf(textOf(secret.metadata, 'namespace'), textOf(secret.metadata, 'name'))) ?? secret,
  );
  return [...lists, { apiVersion: 'v1', kind: 'List', items }];
}

/** What `check --pod NAME [-n NS]` reads: the namespace(s), their pods, and every Deployment (the injector's too). */
export async function readClusterForPod(api: KubeApi, namespace: string | undefined): Promise<KubeList[]> {
  return Promise.all([
    namespacesOf(api, namespace),
    listOf(api, RESOURCES.pods, namespace, false),
    listOf(api, RESOURCES.deployments, undefined, false),
  ]);
}

/** What `audit [-n NS]` reads: the namespace(s), their pods and workloads. */
export async function readClusterForAudit(api: KubeApi, namespace: string | undefined): Promise<KubeList[]> {
  return Promise.all([
    namespacesOf(api, namespace),
    ...[RESOURCES.pods, RESOURCES.deployments, RESOURCES.statefulsets, RESOURCES.daemonsets].map((resource) =>
      listOf(api, resource, namespace, true),
    ),
  ]);
}

async function namespacesOf(api: KubeApi, namespace: string | undefined): Promise<KubeList> {
  if (namespace === undefined) return listOf(api, RESOURCES.namespaces, undefined, false);
  const ask: KubeAsk = { verb: 'get', resource: 'namespaces', name: namespace };
  const object = await api.get(objectPath(RESOURCES.namespaces, undefined, namespace), ask);
  return { apiVersion: 'v1', kind: 'List', items: [typed(RESOURCES.namespaces, record(object))] };
}

/** Every object of a resource, page by page, each with its kind and apiVersion. */
async function listOf(
  api: KubeApi,
  resource: KubeResource,
  namespace: string | undefined,
  narrowable: boolean,
): Promise<KubeList> {
  const ask: KubeAsk = {
    verb: 'list',
    resource: resource.resource,
    namespace,
    narrowable: resource.namespaced && narrowable,
  };
  const items: Json[] = [];
  for (let next: string | undefined = ''; next !== undefined;) {
    const page = record(await api.get(pagePath(listPath(resource, namespace), next), ask));
    items.push(...records(page.items).map((item) => typed(resource, item)));
    next = continueOf(page);
  }
  return { apiVersion: 'v1', kind: 'List', items };
}

/** Every Secret of the cluster as its metadata only, as a Secret with no data. */
async function secretMetadata(api: KubeApi): Promise<Json[]> {
  const ask: KubeAsk = { verb: 'list', resource: 'secrets' };
  const path = listPath(RESOURCES.secrets, undefined);
  const items: Json[] = [];
  let accept = METADATA_ONLY[0]!;
  for (let next: string | undefined = ''; next !== undefined;) {
    let answer = await api.request(pagePath(path, next), accept);
    if (answer.status === NOT_ACCEPTABLE && accept === METADATA_ONLY[0]) {
      accept = METADATA_ONLY[1]!;
      answer = await api.request(pagePath(path, next), accept);
    }
    const page = record(await api.ok(answer, ask));
    // A server that ignores the ask for metadata sends the values too: they are dropped unread, and
    // the command stops rather than read Secrets in full.
    if (page.kind !== 'PartialObjectMetadataList')
      throw new KubeAccessError(
        `the API server answered the list of Secrets with ${String(page.kind)}, not their metadata only ` +
          '(PartialObjectMetadataList): read what kubectl prints from a file instead (sfd-sidecar check FILE|-)',
      );
    items.push(...records(page.items).map((item) => secretOf(record(item.metadata), {})));
    next = continueOf(page);
  }
  return items;
}

/** One Secret with the names of its keys, each value dropped but its `tls.crt` when the read asks for it. */
async function secretKeys(api: KubeApi, read: SecretRead): Promise<Json> {
  const ask: KubeAsk = { verb: 'get', resource: 'secrets', namespace: read.namespace, name: read.name };
  const secret = record(await api.get(objectPath(RESOURCES.secrets, read.namespace, read.name), ask));
  const data = record(secret.data);
  const kept = Object.fromEntries(
    Object.entries(data).map(([key, value]) => [key, read.certificate && key === 'tls.crt' ? value : '']),
  );
  return secretOf(record(secret.metadata), kept);
}

function secretOf(metadata: Json, data: Json): Json {
  const annotations = Object.fromEntries(
    Object.entries(record(metadata.annotations)).filter(([k]) => k !== LAST_APPLIED),
  );
  const { managedFields: _fields, annotations: _annotations, ...rest } = metadata;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: Object.keys(annotations).length > 0 ? { ...rest, annotations } : rest,
    data,
  };
}

/** An item of a list as kubectl prints it: with its kind and apiVersion, without its managed fields. */
function typed(resource: KubeResource, item: Json): Json {
  const { managedFields: _fields, ...metadata } = record(item.metadata);
  return { apiVersion: resource.apiVersion, kind: resource.kind, ...item, metadata };
}

const pagePath = (path: string, next: string): string =>
  `${path}?limit=${PAGE}${next ? `&continue=${encodeURIComponent(next)}` : ''}`;

function continueOf(page: Json): string | undefined {
  const token = record(page.metadata).continue;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

const record = (value: unknown): Json => (isRecord(value) ? value : {});
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const textOf = (value: unknown, key: string): string => {
  const field = record(value)[key];
  return typeof field === 'string' ? field : '';
};
const keyOf = (namespace: string, name: string): string => `${namespace}/${name}`;
