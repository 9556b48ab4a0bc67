// `sfd-sidecar keys check FILE | list [FILE] | schema | split FILE DIR`: validate a key store for the CI
// of whoever owns the secret (and say whether its secret files would reach a pod through a Secret), show
// profiles, keys, windows and expiry (never a secret), print the published JSON Schema, split a store.
import { ConfigError } from '../config/config-error.js';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { singleKeyStore, type KeyStore } from '../keys/key-store.js';
import { keystoreJsonSchema } from '../keys/keystore-schema.js';
import { parseKeyStore, type ParsedKeyStore } from '../keys/parse-key-store.js';
import { kubeSecretLayout } from '../keys/kube-secret-layout.js';
import { readKeyStoreDirectory } from '../keys/read-key-store-path.js';
import { listDirectory } from '../files/directory.js';
import { currentKey } from '../keys/select-key.js';
import type { CliIo } from '../command/cli-io.js';
import { readerOf, type CommandSettings } from '../command/command-settings.js';
import { SETTINGS } from '../config/settings.js';
import { formatObject } from '../command/format-object.js';
import { outputFormatOf, type OutputFormat } from '../command/output-format.js';

const DAY_MS = 86_400_000;
const USAGE =
  'usage: sfd-sidecar keys check FILE | keys list [FILE] [-o json|yaml] | keys schema | keys split FILE DIR';

export async function keysCommand(
  positionals: readonly string[],
  settings: CommandSettings,
  options: Readonly<Record<string, unknown>>,
  io: CliIo,
): Promise<number> {
  const [action, file, dir] = positionals;
  const format = outputFormatOf(options);
  switch (action) {
    case 'split':
      if (!file || !dir) {
        io.stderr(`${USAGE}\n`);
        return 2;
      }
      return (await import('./keys-split.js')).splitKeyStore(file, dir, io);
    case 'check':
      return check(file, io);
    case 'list':
      return list(file, settings, format, io);
    case 'schema':
      io.stdout(`${JSON.stringify(keystoreJsonSchema(), null, 2)}\n`);
      return 0;
    default:
      io.stderr(`${USAGE}\n`);
      return 2;
  }
}

async function check(file: string | undefined, io: CliIo): Promise<number> {
  if (!file) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  const loaded = await load(file, io);
  for (const warning of loaded.warnings) io.stderr(`${file}: warning: ${warning}\n`);
  if (!loaded.ok) {
    io.stderr(
      `${file}: ${loaded.problems.length} problem${loaded.problems.length === 1 ? '' : 's'}:\n` +
        `${bulleted(loaded.problems)}\n`,
    );
    return 1;
  }
  const layout = kubeSecretLayout({ path: file, directory: loaded.directory }, loaded.secretFiles);
  for (const { label, reason } of layout.stranded) io.stderr(`${file}: warning: ${label}: ${reason}\n`);
  const keys = [...loaded.store.profiles.values()].reduce((sum, p) => sum + p.keys.length, 0);
  io.stdout(
    `${file}: valid, ${loaded.store.profiles.size} profile${loaded.store.profiles.size === 1 ? '' : 's'}, ` +
      `${keys} key${keys === 1 ? '' : 's'}\n`,
  );
  // The documented command carries the store file alone; a store with secret files needs them beside it.
  if (loaded.secretFiles.length > 0 && layout.createCommand !== null)
    io.stdout(
      `a Secret that carries the key store with its secret files, mounted beside it:\n  ${layout.createCommand}\n`,
    );
  return 0;
}

/** A key store read from a path, and whether the path is a directory of per-profile files. */
type LoadedKeyStore = ParsedKeyStore & { readonly directory: boolean };

async function load(file: string, io: CliIo): Promise<LoadedKeyStore> {
  // A directory of per-profile files, as the sidecar reads it.
  const entries = await listDirectory(file);
  if (entries !== null)
    return { ...(await readKeyStoreDirectory(file, entries, { readFile: io.readFileAsync })), directory: true };
  let text: string;
  try {
    text = await io.readFileAsync(file, FILE_LIMITS.keyStore);
  } catch (error) {
    return { ok: false, problems: [`(file): ${describeFileProblem(error)}`], warnings: [], directory: false };
  }
  return { ...(await parseKeyStore(text, file, { readFile: io.readFileAsync })), directory: false };
}

interface KeyRow {
  profile: string;
  accessKeyId: string;
  notBefore: string | null;
  notAfter: string | null;
  current: boolean;
  daysToExpiry: number | null;
}

/** Lists the keys of FILE, as `check` reads it, or else of the configured key store or single key. */
async function list(
  file: string | undefined,
  settings: CommandSettings,
  format: OutputFormat | null,
  io: CliIo,
): Promise<number> {
  if (file !== undefined) {
    const loaded = await load(file, io);
    for (const warning of loaded.warnings) io.stderr(`${file}: warning: ${warning}\n`);
    if (!loaded.ok) {
      io.stderr(`${file}: not listed, it has problems (run keys check):\n${bulleted(loaded.problems)}\n`);
      return 1;
    }
    io.stdout(keyListing(loaded.store, format, io.now()));
    return 0;
  }
  const r = readerOf(settings, io);
  const path = r.raw(SETTINGS.keystoreFile);
  const profileName = r.value(SETTINGS.profile);
  let store: KeyStore | undefined;
  if (path !== undefined) {
    const loaded = await load(path.trim(), io);
    for (const warning of loaded.warnings) io.stderr(`${path.trim()}: warning: ${warning}\n`);
    if (loaded.ok) store = loaded.store;
    else r.problems.push(...loaded.problems.map((p) => `${SETTINGS.keystoreFile.env} ${p}`));
  } else {
    const key = r.accessKey();
    for (const warning of r.warnings) io.stderr(`warning: ${warning}\n`);
    if (key) store = singleKeyStore(profileName, key);
  }
  if (!store)
    throw new ConfigError(
      r.problems.length > 0
        ? r.problems
        : [`${SETTINGS.keystoreFile.env} or ${SETTINGS.accessKeyId.env}: one is required`],
    );
  io.stdout(keyListing(store, format, io.now()));
  return 0;
}

const bulleted = (lines: readonly string[]): string => lines.map((line) => `  - ${line}`).join('\n');

/** The keys of a store as a table, JSON or YAML: ids, windows, the current key, days to expiry; never a secret. */
function keyListing(store: KeyStore, format: OutputFormat | null, now: number): string {
  const rows: KeyRow[] = [];
  for (const profile of store.profiles.values()) {
    const current = currentKey(profile, now)?.accessKeyId;
    for (const stored of profile.keys) {
      rows.push({
        profile: profile.name,
        accessKeyId: stored.key.accessKeyId,
        notBefore: stored.notBefore === null ? null : new Date(stored.notBefore).toISOString(),
        notAfter: stored.notAfter === null ? null : new Date(stored.notAfter).toISOString(),
        current: stored.key.accessKeyId === current,
        daysToExpiry: stored.notAfter === null ? null : Math.floor(((stored.notAfter - now) / DAY_MS) * 10) / 10,
      });
    }
  }
  if (format === 'json') return `${JSON.stringify(rows)}\n`;
  return format === 'yaml' ? formatObject(rows, 'yaml') : table(rows);
}

function table(rows: readonly KeyRow[]): string {
  const header = ['PROFILE', 'ACCESS KEY ID', 'NOT BEFORE', 'NOT AFTER', 'CURRENT', 'DAYS TO EXPIRY'];
  const cells = rows.map((row) => [
    row.profile,
    row.accessKeyId,
    row.notBefore ?? '-',
    row.notAfter ?? '-',
    row.current ? 'yes' : 'no',
    row.daysToExpiry === null ? '-' : String(row.daysToExpiry),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  return (
    [header, ...cells]
      .map((line) =>
        line
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
