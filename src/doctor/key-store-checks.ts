// The key store as the sidecar would load it, and the key each profile signs with now: findings an
// operator can act on (a file that does not parse, a key about to expire).
import type { Config } from '../config/load-config.js';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { singleKeyStore, type KeyStore, type Profile } from '../keys/key-store.js';
import { parseKeyStore } from '../keys/parse-key-store.js';
import { usableKeys } from '../keys/select-key.js';
import { fail, ok, warn, type CheckResult } from './check-result.js';
import { SETTINGS } from '../config/settings.js';
import { readKeyStoreDirectory } from '../keys/read-key-store-path.js';
import { listDirectory } from '../files/directory.js';

/** Reads a regular file without blocking, at most `maxBytes` of it; throws when it cannot. */
export type ReadFileAsync = (path: string, maxBytes: number) => Promise<string>;

const DAY_MS = 86_400_000;

/** @param oddities collects the key store's warnings (a secret with whitespace at its edges) */
export async function loadStore(
  config: Config,
  readFileAsync: ReadFileAsync,
  checks: CheckResult[],
  oddities: string[],
): Promise<KeyStore | null> {
  const source = config.keySource;
  if (source.kind === 'single') return singleKeyStore(config.profile, source.key);
  if (source.kind !== 'keystore') return null;
  // A directory of per-profile files is read as the sidecar reads it.
  const entries = await listDirectory(source.path);
  let text: string | null = null;
  try {
    if (entries === null) text = await readFileAsync(source.path, FILE_LIMITS.keyStore);
  } catch (error) {
    checks.push(
      fail(
        'key store',
        `${source.path}: ${describeFileProblem(error)}`,
        `check ${SETTINGS.keystoreFile.env} and the volume mount`,
      ),
    );
    return null;
  }
  const parsed =
    entries !== null
      ? await readKeyStoreDirectory(source.path, entries, { readFile: readFileAsync })
      : await parseKeyStore(text!, source.path, { readFile: readFileAsync });
  oddities.push(...parsed.warnings.map((w) => `${source.path}: ${w}`));
  if (!parsed.ok) {
    checks.push(
      fail('key store', parsed.problems.join('; '), `run sfd-sidecar keys check ${source.path} and fix the file`),
    );
    return null;
  }
  checks.push(ok('key store', `${source.path}: ${parsed.store.profiles.size} profile(s)`));
  return parsed.store;
}

export function keyChecks(store: KeyStore, now: number, warningDays: number): CheckResult[] {
  return [...store.profiles.values()].map((profile: Profile) => {
    const current = usableKeys(profile, now)[0];
    const name = `key of profile ${profile.name}`;
    if (!current) return fail(name, 'no key is valid now', 'add a key whose notBefore/notAfter window holds now');
    const id = current.key.accessKeyId;
    if (current.notAfter === null) return ok(name, `${id} is current and does not expire`);
    const days = (current.notAfter - now) / DAY_MS;
    const until = new Date(current.notAfter).toISOString();
    const detail = `${id} is current, valid until ${until} (${days.toFixed(1)} days)`;
    return days <= warningDays
      ? warn(name, detail, 'add its successor with a notBefore before that date (docs/keystore.md, Rotating a key)')
      : ok(name, detail);
  });
}
