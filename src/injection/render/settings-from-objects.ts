// The sidecar's settings from a ConfigMap and a Secret the pod names (one entry per SFD_* setting): an
// environment entry per setting the sidecar reads, each optional, and nothing else. An `envFrom` would
// take every entry, and with it any variable the process that holds the keys obeys (NODE_OPTIONS,
// LD_PRELOAD, HTTPS_PROXY, NODE_TLS_REJECT_UNAUTHORIZED...): a list of what to block is never complete,
// so the list here is of what may pass.
import { SETTINGS } from '../../config/settings.js';
import type { EnvVar } from '../pod.js';

/** Settings an object may not give: where the keys come from, and files of settings. */
const NEVER_FROM_OBJECTS = new Set<string>([
  SETTINGS.envFile.env,
  SETTINGS.keystoreFile.env,
  SETTINGS.accessKeyId.env,
  SETTINGS.accessKeySecret.env,
  SETTINGS.accessKeySecretFile.env,
  SETTINGS.profile.env,
  SETTINGS.allowedProfiles.env,
  SETTINGS.profileHeader.env,
]);

/** The variables `serve` reads that a ConfigMap or Secret may set. */
export function settingsObjectsMaySet(setByInjection: ReadonlySet<string>): string[] {
  return Object.values(SETTINGS)
    .filter((setting) => (setting.commands as readonly string[]).includes('serve'))
    .map((setting) => setting.env)
    .filter((name) => !NEVER_FROM_OBJECTS.has(name) && !setByInjection.has(name));
}

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
