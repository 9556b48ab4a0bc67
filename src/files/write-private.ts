// Writes a new file only its owner can read (key material), never over an existing one, and makes the
// directories such files go in, reachable by their owner only.
import { mkdirSync, writeFileSync } from 'node:fs';

export function writePrivateFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
}

/** Makes `path` and its missing parents, each only its owner can enter; one that exists is left as it is. */
export function makePrivateDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
}
