// Every namespace that asks for the sidecar, or runs pods that carry it, holds the key store Secret its
// pods mount, with the key each one reads (with the per-profile layout, one `<profile>.json` for each
// profile its pods use). A Secret missing there leaves the pods of the namespace waiting on their mount.
import { asks, declines, INJECT_LABEL, KEYSTORE_VOLUME, SIDECAR_NAME } from '../../contract.js';
import { isRecord } from '../../../text/is-record.js';
import type { KubeObject } from '../../manifests/pod-templates.js';
import { overrideByAnnotations, podProfiles, type InjectionOptions } from '../../options.js';
import { SETTINGS } from '../../../config/settings.js';
import { metadataOf, textOf, type ClusterInput } from '../cluster/cluster-input.js';
import type { InjectorInstall } from '../cluster/injector-install.js';
import { notChecked, type CheckResult } from './check-result.js';

const CHECK = 'key store Secret';

type Json = Record<string, unknown>;
const record = (value: unknown): Json => (isRecord(value) ? value : {});
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const strings = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(record(value)).filter((e): e is [string, string] => typeof e[1] === 'string'));

export interface Need {
  readonly secret: string;
  readonly keys: readonly string[];
  readonly pod: string;
}

export function checkKeyStores(cluster: ClusterInput, injectors: readonly InjectorInstall[]): CheckResult[] {
  const missing = notChecked(CHECK, ['Namespace', 'Pod', 'Secret'], cluster.kinds);
  if (missing.length > 0) return missing;
  const defaults = injectors[0]?.defaults;
  if (defaults === undefined) return [];
  const needs = keyStoreNeeds(cluster, defaults);
  return [...needs].flatMap(([namespace, list]) => {
    const bySecret = new Map<string, Need[]>();
    for (const need of list) bySecret.set(need.secret, [...(bySecret.get(need.secret) ?? []), need]);
    return [...bySecret].map(([name, users]): CheckResult => {
      const secret = cluster.secrets.find((s) => s.namespace === namespace && s.name === name);
      const wanted = [...new Set(users.flatMap((u) => u.keys))].sort();
      const pods = [...new Set(users.map((u) => u.pod))];
      const fix =
        `kubectl -n ${namespace} create secret generic ${name} ` +
        wanted.map((key) => `--from-file=${key}=${key}`).join(' ') +
        ' (or let your secret manager write it)';
      if (secret === undefined)
        return {
          check: CHECK,
          status: 'fail',
          detail: `${namespace}/${name} is missing; ${describe(pods)} mount it`,
          fix,
        };
      const absent = wanted.filter((key) => !secret.keys.includes(key));
      if (absent.length > 0)
        return {
          check: CHECK,
          status: 'fail',
          detail: `${namespace}/${name} has no ${absent.join(', ')}, which ${describe(pods)} read`,
          fix,
        };
      return { check: CHECK, status: 'ok', detail: `${namespace}/${name} holds ${wanted.join(', ')}` };
    });
  });
}

/** The key store Secrets each namespace's pods mount, or would mount once injected, with the keys they read. */
export function keyStoreNeeds(
  cluster: Pick<ClusterInput, 'namespaces' | 'pods'>,
  defaults: InjectionOptions,
): Map<string, Need[]> {
  const asking = new Set(
    cluster.namespaces
      .filter((n) => asks(strings(record(n.metadata).labels)[INJECT_LABEL]))
      .map((n) => String(n.metadata?.name)),
  );
  const needs = new Map<string, Need[]>();
  const add = (namespace: string, need: Need) => needs.set(namespace, [...(needs.get(namespace) ?? []), need]);
  for (const pod of cluster.pods) {
    const namespace = textOf(pod.metadata?.namespace);
    const need = needOf(pod, defaults, asking.has(namespace));
    if (need) add(namespace, need);
  }
  for (const namespace of asking)
    if (!needs.has(namespace) && defaults.keystoreSecret !== null && defaults.keystoreLayout === 'file')
      add(namespace, { secret: defaults.keystoreSecret, keys: [defaults.keystoreKey], pod: 'new pods' });
  return needs;
}

const describe = (pods: readonly string[]): string =>
  pods.length <= 3 ? pods.join(', ') : `${pods.slice(0, 3).join(', ')} and ${pods.length - 3} more`;

/** The Secret and keys a pod mounts (its sidecar's volume), or would mount once injected; none if neither. */
function needOf(pod: KubeObject, defaults: InjectionOptions, namespaceAsks: boolean): Need | null {
  const name = textOf(metadataOf(pod).name) || textOf(metadataOf(pod).generateName) || '?';
  const spec = record(pod.spec);
  const containers = [...records(spec.initContainers), ...records(spec.containers)];
  const volume = records(spec.volumes).find((v) => v.name === KEYSTORE_VOLUME);
  if (containers.some((c) => c.name === SIDECAR_NAME) && volume !== undefined) {
    const secret = record(volume.secret);
    const items = records(secret.items).map((i) => String(i.key));
    const file = records(containers.find((c) => c.name === SIDECAR_NAME)?.env).find(
      (e) => e.name === SETTINGS.keystoreFile.env,
    );
    const key = typeof file?.value === 'string' ? file.value.split('/').at(-1) : undefined;
    const keys = items.length > 0 ? items : key ? [key] : [];
    return typeof secret.secretName === 'string' ? { secret: secret.secretName, keys, pod: name } : null;
  }
  const labels = strings(record(pod.metadata).labels);
  const asked = asks(labels[INJECT_LABEL]) || (namespaceAsks && !declines(labels[INJECT_LABEL]));
  if (!asked) return null;
  const { options } = overrideByAnnotations(defaults, strings(record(pod.metadata).annotations));
  if (options.keystoreSecret === null) return null;
  const keys =
    options.keystoreLayout === 'per-profile' ? podProfiles(options).map((p) => `${p}.json`) : [options.keystoreKey];
  return { secret: options.keystoreSecret, keys, pod: name };
}
