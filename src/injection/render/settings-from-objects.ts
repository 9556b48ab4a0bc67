// The sidecar's settings from a ConfigMap and a Secret the pod names (one entry per SFD_* setting): an
// environment entry per setting the sidecar reads, each optional, and nothing else. An `envFrom` would
// take every entry, and with it any variable the process that holds the keys obeys (NODE_OPTIONS,
// LD_PRELOAD, HTTPS_PROXY, NODE_TLS_REJECT_UNAUTHORIZED...): a list of what to block is never complete,
// so the list here is of what may pass. Each variable is written once: the API server warns about a
// name given twice, and a server-side apply merges env entries by name and drops one of them.
import { settingsObjectsMaySet } from '../contract.js';
import { SERVE_SETTINGS } from '../serve-settings.js';
import type { EnvVar } from '../pod.js';

const SECRETS = new Set<string>(
  SERVE_SETTINGS.filter((setting) => setting.secret === true).map((setting) => setting.env),
);

/**
 * An entry reading each allowed setting from one object: from the only one named, or, when the pod names
 * both, the settings that are secrets from the Secret and every other from the ConfigMap.
 */
export function settingsFromObjects(
  objects: { readonly configMap: string | null; readonly secret: string | null },
  setByInjection: ReadonlySet<string>,
): EnvVar[] {
  const { configMap, secret } = objects;
  return settingsObjectsMaySet(setByInjection).flatMap((name): EnvVar[] => {
    if (secret !== null && (configMap === null || SECRETS.has(name)))
      return [{ name, valueFrom: { secretKeyRef: { name: secret, key: name, optional: true } } }];
    if (configMap !== null)
      return [{ name, valueFrom: { configMapKeyRef: { name: configMap, key: name, optional: true } } }];
    return [];
  });
}
