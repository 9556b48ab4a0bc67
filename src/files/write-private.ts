// Writes a new file only its owner can read (key material), never over an existing one.
import { writeFileSync } from 'node:fs';

export function writePrivateFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
}
