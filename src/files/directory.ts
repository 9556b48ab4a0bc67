// The entries of a directory, or null when the path is not one: a key store may be a file, or a
// directory of files (a Secret volume with one file per profile).
import { readdir, stat } from 'node:fs/promises';

export async function listDirectory(path: string): Promise<string[] | null> {
  try {
    if (!(await stat(path)).isDirectory()) return null;
    return (await readdir(path)).sort();
  } catch {
    // A path that cannot be read is reported when it is read as a file.
    return null;
  }
}
