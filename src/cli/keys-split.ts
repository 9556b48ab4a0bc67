// `sfd-sidecar keys split FILE DIR`: the key store as one file per profile, DIR/<profile>.json, each a
// key store holding that profile alone with its secrets inline (a secretFile is read and written in):
// the per-profile layout, whose files an injected pod mounts only for the profiles it uses. The files
// are new and only their owner can read them, in DIR, made (with its parents) for its owner alone when
// it does not exist; nothing of a secret is printed.
import { dirname, join } from 'node:path';
import { PROFILE_NAME_PATTERN } from '../config/profile-parsers.js';
import { FILE_LIMITS } from '../files/regular-file.js';
import { parseKeyStore, readSecretFile } from '../keys/parse-key-store.js';
import { parseStructuredText } from '../keys/read-structured-text.js';
import type { CliIo } from '../command/cli-io.js';

type Fields = Record<string, unknown>;

export async function splitKeyStore(file: string, dir: string, io: CliIo): Promise<number> {
  const text = await io.readFileAsync(file, FILE_LIMITS.keyStore);
  const parsed = await parseKeyStore(text, file, { readFile: io.readFileAsync });
  if (!parsed.ok) {
    io.stderr(
      `${file}: not split, it has problems (run keys check):\n${parsed.problems.map((p) => `  - ${p}`).join('\n')}\n`,
    );
    return 1;
  }
  const raw = parseStructuredText(text, file);
  if (!raw.ok) return 1;
  const profiles = (raw.value as { profiles: Record<string, Fields> }).profiles;
  try {
    io.makePrivateDirectory(dir);
  } catch (error) {
    io.stderr(`${dir}: not made (${(error as NodeJS.ErrnoException).code ?? 'error'}); nothing is written\n`);
    return 1;
  }
  const written: string[] = [];
  for (const [name, profile] of Object.entries(profiles)) {
    // Validated above: the name is a profile name, safe as a file name.
    if (!PROFILE_NAME_PATTERN.test(name)) return 1;
    const keys = await Promise.all(
      (profile.keys as Fields[]).map(async ({ secretFile, ...key }) => {
        if (typeof secretFile !== 'string') return key;
        return { ...key, secret: await readSecretFile({ readFile: io.readFileAsync }, dirname(file), secretFile) };
      }),
    );
    const target = join(dir, `${name}.json`);
    try {
      io.writePrivateFile(target, `${JSON.stringify({ profiles: { [name]: { ...profile, keys } } }, null, 2)}\n`);
    } catch (error) {
      io.stderr(
        `${target}: not written (${(error as NodeJS.ErrnoException).code ?? 'error'}); nothing is overwritten\n`,
      );
      return 1;
    }
    written.push(`${name}.json`);
  }
  const fromFiles = written.map((name) => `--from-file=${join(dir, name)}`).join(' ');
  io.stderr(
    `wrote ${written.length} file${written.length === 1 ? '' : 's'} in ${dir} (mode 0600): ${written.join(', ')}\n` +
      `create the Secret of a namespace with the files of its profiles only, for example:\n` +
      `  kubectl -n NAMESPACE create secret generic sfd-keys ${fromFiles}\n` +
      'and inject with --keystore-layout per-profile (the chart: keystore.layout=per-profile)\n',
  );
  return 0;
}
