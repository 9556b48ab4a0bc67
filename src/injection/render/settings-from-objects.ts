// The sidecar's settings from a ConfigMap and a Secret the pod names (one entry per SFD_* setting): an
// environment entry per setting the sidecar reads, each optional, and nothing else. An `envFrom` would
// take every entry, and with it any variable the process that holds the keys obeys (NODE_OPTIONS,
// LD_PRELOAD, HTTPS_PROXY, NODE_TLS_REJECT_UNAUTHORIZED...): a list of what to block is never complete,
// so the list here is of what may pass.
import { settingsObjectsMaySet } from '../contract.js';
import type { EnvVar } from '../pod.js';

/** Entries reading each allowed setting from the ConfigMap, then the Secret (the Secret's value wins). */
export function settingsFromObjects(
  objects: { readonly configMap: string | null; readonly secret: string | null },
  setByInjection: ReadonlySet<string>,
): EnvVar[] {
  const names = settingsObjectsMaySet(setByInjection);
  const entries: EnvVar[] = [];
  if (objects.configMap)
    for (const name of names)
      entries.push({ name, valueFrom: { configMapKeyRef: { name: objects.configMap, key: name, optional: true } } });
  if (objects.secret)
    for (const name of names)
      entries.push({ name, valueFrom: { secretKeyRef: { name: objects.secret, key: name, optional: true } } });
  return entries;
}
