// One read of the key store as the reloader takes it: what it parsed to, a digest of every file read,
// and where those files are. "Changed" covers the secret files the store names as well as the store's
// own text, and is judged by the digest, so neither the text nor a secret is kept between reads.
import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import type { ParsedKeyStore } from './parse-key-store.js';
import { readKeyStorePath, type KeyStorePathFiles } from './read-key-store-path.js';

export interface KeyStoreSnapshot {
  readonly parsed: ParsedKeyStore;
  /**
   * The digest of every file read (the store, then its secret files), each framed by path and length,
   * and of the problems when the store does not validate: a file that went missing and one that turned
   * unreadable read the same bytes, none, and are told apart by their problems.
   */
  readonly digest: string;
  /** The directory to watch: the store itself when it is a directory, else the one it is in. */
  readonly directory: string;
  /** The names, in that directory, of the files this read read or tried to. */
  readonly names: ReadonlySet<string>;
}

/** Stands for "nothing read yet": no digest of a read is empty. */
export const NOTHING_READ: KeyStoreSnapshot = {
  parsed: { ok: false, problems: [], warnings: [] },
  digest: '',
  directory: '',
  names: new Set(),
};

export async function readKeyStoreSnapshot(path: string, files: KeyStorePathFiles): Promise<KeyStoreSnapshot> {
  const inputs = createHash('sha256');
  const read = new Set<string>();
  // Whether the store is a directory decides what is watched, and is known once its path is listed.
  let directory = dirname(path);
  const parsed = await readKeyStorePath(path, {
    readFile: async (file, maxBytes) => {
      read.add(file);
      const text = await files.readFile(file, maxBytes);
      inputs.update(`${file}\0${text.length}\0`).update(text);
      return text;
    },
    listDirectory: async (dir) => {
      const entries = await files.listDirectory(dir);
      if (dir === path && entries !== null) directory = path;
      return entries;
    },
  });
  if (!parsed.ok) inputs.update(`\0problems\0${parsed.problems.join('\0')}`);
  const names = new Set([...read].filter((file) => dirname(file) === directory).map((file) => basename(file)));
  return { parsed, digest: inputs.digest('hex'), directory, names };
}
