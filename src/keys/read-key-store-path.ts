// A key store is a file, or a directory of files each holding some of the profiles (a Secret volume
// that projects one `<profile>.json` per profile the pod may use): every JSON or YAML file in it is read
// and validated, and the profiles are merged; a profile in two files is a problem. The kubelet's own
// entries (`..data` and its timestamped directories) are left out.
import { join } from 'node:path';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import type { Profile } from './key-store.js';
import { parseKeyStore, type KeyStoreFiles, type ParsedKeyStore, type SecretFileEntry } from './parse-key-store.js';

export interface KeyStorePathFiles extends KeyStoreFiles {
  /** The entries of a directory, or null when the path is not one. */
  readonly listDirectory: (path: string) => Promise<string[] | null>;
}

const STORE_FILE = /^[^.].*\.(json|ya?ml)$/i;

/** Whether a directory store reads a file of this name (the kubelet's own `..` entries never). */
export const isKeyStoreFileName = (name: string): boolean => STORE_FILE.test(name);

export async function readKeyStorePath(path: string, files: KeyStorePathFiles): Promise<ParsedKeyStore> {
  const entries = await files.listDirectory(path);
  return entries === null ? readOne(path, files) : readKeyStoreDirectory(path, entries, files);
}

/** The store of a directory whose entries have been listed. */
export async function readKeyStoreDirectory(
  path: string,
  entries: readonly string[],
  files: KeyStoreFiles,
): Promise<ParsedKeyStore> {
  const names = entries.filter(isKeyStoreFileName);
  if (names.length === 0) return { ok: false, problems: ['(directory): holds no .json or .yaml file'], warnings: [] };
  const profiles = new Map<string, Profile>();
  const problems: string[] = [];
  const warnings: string[] = [];
  const secretFiles: SecretFileEntry[] = [];
  for (const name of names) {
    const parsed = await readOne(join(path, name), files);
    const label = (text: string) => `${name}: ${text}`;
    warnings.push(...parsed.warnings.map(label));
    if (!parsed.ok) {
      problems.push(...parsed.problems.map(label));
      continue;
    }
    secretFiles.push(...parsed.secretFiles.map((entry) => ({ ...entry, label: label(entry.label) })));
    for (const [profileName, profile] of parsed.store.profiles) {
      if (profiles.has(profileName)) problems.push(label(`profile ${profileName} is also in another file`));
      profiles.set(profileName, profile);
    }
  }
  return problems.length > 0
    ? { ok: false, problems, warnings }
    : { ok: true, store: { profiles }, warnings, secretFiles };
}

async function readOne(path: string, files: KeyStoreFiles): Promise<ParsedKeyStore> {
  let text: string;
  try {
    text = await files.readFile(path, FILE_LIMITS.keyStore);
  } catch (error) {
    return { ok: false, problems: [`(file): ${path}: ${describeFileProblem(error)}`], warnings: [] };
  }
  return parseKeyStore(text, path, files);
}
