// Whether a key store's secret files reach a pod that mounts the store from a Kubernetes Secret, and the
// `kubectl create secret` command that carries them. A Secret volume is one flat directory holding the
// Secret's keys, so a secretFile arrives only when it names a file beside the key store, by a name a
// Secret key can have, and the Secret carries it too; otherwise the store checks out where it was
// written and does not load in the pod. With the per-profile layout an injected pod mounts only the
// `<profile>.json` files, so no secret file arrives at all.
import { basename, dirname, isAbsolute, relative } from 'node:path';
import { shellWord } from '../text/shell-word.js';
import type { SecretFileEntry } from './parse-key-store.js';

/** A Secret key: letters, digits, `-`, `_` and `.`, at most 253 (Kubernetes refuses any other). */
const SECRET_KEY = /^[-._a-zA-Z0-9]{1,253}$/;

/** Why a secret file would be missing in the pod, by what is wrong with it. */
const STRANDED = {
  notBeside: (entry: SecretFileEntry, name: string) =>
    `${entry.secretFile} is not beside the key store: a Secret's files are mounted together in one ` +
    `directory, so in the pod it would be missing; put the file beside the key store, name it ${name}, ` +
    'and carry it in the Secret',
  notSecretKey: (entry: SecretFileEntry) =>
    `${entry.secretFile} is not a name a Secret's key can have (letters, digits, -, _ and ., at most 253): ` +
    'the Secret cannot carry it, so in the pod it would be missing; rename the file',
  perProfile: (entry: SecretFileEntry) =>
    `${entry.secretFile}: an injected pod with the per-profile layout mounts only the <profile>.json files, ` +
    'so in the pod it would be missing; write the secret inline (keys split does)',
} as const;

export interface StrandedSecretFile {
  /** The field's place in the store, such as `profiles.billing.keys[0].secretFile`. */
  readonly label: string;
  readonly reason: string;
}

export interface SecretLayout {
  readonly stranded: readonly StrandedSecretFile[];
  /** The command that makes the Secret with the key store and every secret file it can carry; null for a directory. */
  readonly createCommand: string | null;
}

/**
 * @param store the key store's path, and whether it is a directory of per-profile files
 * @param entries the store's keys read from secret files
 */
export function kubeSecretLayout(
  store: { readonly path: string; readonly directory: boolean },
  entries: readonly SecretFileEntry[],
): SecretLayout {
  if (store.directory)
    return { stranded: entries.map((e) => ({ label: e.label, reason: STRANDED.perProfile(e) })), createCommand: null };
  const storeDir = dirname(store.path);
  const beside = (entry: SecretFileEntry): boolean =>
    // An absolute path names a place on this machine, not beside the key store wherever it is mounted.
    !isAbsolute(entry.secretFile) && dirname(relative(storeDir, entry.path)) === '.';
  const stranded: StrandedSecretFile[] = [];
  for (const entry of entries) {
    const name = basename(entry.path);
    if (!beside(entry)) stranded.push({ label: entry.label, reason: STRANDED.notBeside(entry, name) });
    else if (!SECRET_KEY.test(name)) stranded.push({ label: entry.label, reason: STRANDED.notSecretKey(entry) });
  }
  // Each Secret key and the file it carries: the key store's own file, then the files already beside it,
  // which keep their names, then those to be moved beside it (a name already carried stays with its file).
  const carried = new Map([[basename(store.path), store.path]]);
  for (const entry of [...entries.filter(beside), ...entries.filter((e) => !beside(e))]) {
    const name = basename(entry.path);
    if (SECRET_KEY.test(name) && !carried.has(name)) carried.set(name, entry.path);
  }
  const fromFiles = [...carried].map(([key, path]) => shellWord(`--from-file=${key}=${path}`));
  return { stranded, createCommand: `kubectl -n NAMESPACE create secret generic sfd-keys ${fromFiles.join(' ')}` };
}
