// Writes a directory the way the kubelet updates a Secret volume: files live in a timestamped
// directory, `..data` is a symlink to it, each file name is a symlink through `..data`, and an update
// writes a new timestamped directory, points `..data_tmp` at it, renames that over `..data` (atomic)
// and deletes the old directory.
import {
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SecretVolume {
  readonly dir: string;
  /** The path an application reads, e.g. `<dir>/keystore.json`. */
  path(name: string): string;
  /** Publishes a new set of files atomically, as the kubelet does. */
  update(files: Record<string, string>): void;
}

let counter = 0;

export function createSecretVolume(files: Record<string, string>): SecretVolume {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-volume-'));
  const publish = (contents: Record<string, string>): void => {
    counter += 1;
    const stamp = `..2026_11_22_00_00_00.${process.pid}${counter}`;
    mkdirSync(join(dir, stamp));
    for (const [name, text] of Object.entries(contents)) writeFileSync(join(dir, stamp, name), text);
    const previous = existsSync(join(dir, '..data')) ? readlinkSync(join(dir, '..data')) : null;
    symlinkSync(stamp, join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
    for (const name of Object.keys(contents)) {
      if (!existsSync(join(dir, name))) symlinkSync(join('..data', name), join(dir, name));
    }
    if (previous) rmSync(join(dir, previous), { recursive: true, force: true });
  };
  publish(files);
  return { dir, path: (name) => join(dir, name), update: publish };
}
