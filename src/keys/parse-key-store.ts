// Turns a key store file's text into a KeyStore, or into every problem found, in one run: each profile
// and key is checked field by field, and the checks that need a field (windows, duplicates, secret
// files) run wherever that field is right. Problems give their line and column and what is allowed.
// They quote nothing of the file but what has passed as a profile name or a secret file's path in its
// place: a secret written one line off lands where a field name or a name is expected, and these
// messages reach /readyz and the log. Nor do they quote an access key id: every sidecar reading a
// shared store shows them, a key id is for its own profile's users, and its place already says which key.
// Warnings are for what works but is likely a mistake.
import { dirname, isAbsolute, join } from 'node:path';
import { parseUpstreamUrl, type UpstreamTarget } from '../config/parsers.js';
import { PROFILE_NAME_PATTERN } from '../config/profile-parsers.js';
import { secretWhitespaceProblem } from '../config/secret-whitespace.js';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { createAccessKey } from '../signing/access-key.js';
import type { SigningOptions } from '../signing/types.js';
import type { KeyStore, Profile, StoredKey } from './key-store.js';
import { checkField, KEY_FIELDS, LIMIT_FIELDS, PROFILE_FIELDS } from './keystore-schema.js';
import { operationLimit, type OperationLimit } from '../operations/operation-limit.js';
import { readOperationItem, type OperationItem } from '../operations/operation-rules.js';
import { parseStructuredText } from './read-structured-text.js';
import { isRecord } from '../text/is-record.js';

export type ParsedKeyStore =
  | {
      readonly ok: true;
      readonly store: KeyStore;
      readonly warnings: readonly string[];
      readonly secretFiles: readonly SecretFileEntry[];
    }
  | { readonly ok: false; readonly problems: readonly string[]; readonly warnings: readonly string[] };

/** A key whose secret was read from a file: where the store names it, the name as written, the path read. */
export interface SecretFileEntry {
  /** The field's place, such as `profiles.billing.keys[0].secretFile`. */
  readonly label: string;
  readonly secretFile: string;
  readonly path: string;
}

export interface KeyStoreFiles {
  /** Reads a secret file as UTF-8, at most `maxBytes` of it; throws when it cannot. */
  readonly readFile: (path: string, maxBytes: number) => Promise<string>;
}

type Fields = Record<string, unknown>;
const fieldList = (fields: object): string => Object.keys(fields).join(', ');

type Path = readonly (string | number)[];

/** Collects the problems and warnings of one file, each at its place. */
class Findings {
  readonly problems: string[] = [];
  readonly warnings: string[] = [];
  readonly secretFiles: SecretFileEntry[] = [];
  constructor(private readonly place: (path: Path) => string) {}
  problem(path: Path, label: string, message: string): void {
    this.problems.push(`${this.place(path)}: ${label}: ${message}`);
  }
  warning(path: Path, label: string, message: string): void {
    this.warnings.push(`${this.place(path)}: ${label}: ${message}`);
  }
}

/** Where a problem is, in words that quote only validated names. */
interface At {
  readonly path: Path;
  readonly label: string;
}
const child = (at: At, field: string): At => ({ path: [...at.path, field], label: `${at.label}.${field}` });

export async function parseKeyStore(text: string, filePath: string, files: KeyStoreFiles): Promise<ParsedKeyStore> {
  const parsed = parseStructuredText(text, filePath);
  if (!parsed.ok) return { ok: false, problems: parsed.problems, warnings: [] };
  const found = new Findings(parsed.place);
  const profiles = new Map<string, Profile>();
  const root = parsed.value;
  if (!isRecord(root)) found.problem([], '(file)', 'must be an object with "profiles"');
  else {
    for (const name of Object.keys(root))
      if (name !== 'profiles') found.problem([name], '(file)', 'a field a key store does not have (it has profiles)');
    const entries = isRecord(root.profiles) ? Object.entries(root.profiles) : null;
    if (entries === null) found.problem(['profiles'], 'profiles', 'must be an object of profiles by name');
    else if (entries.length === 0) found.problem(['profiles'], 'profiles', 'must hold at least one profile');
    for (const [index, [name, profile]] of (entries ?? []).entries()) {
      const built = await buildProfile(name, index, profile, dirname(filePath), files, found);
      if (built) profiles.set(name, built);
    }
  }
  return found.problems.length > 0
    ? { ok: false, problems: found.problems, warnings: found.warnings }
    : { ok: true, store: { profiles }, warnings: found.warnings, secretFiles: found.secretFiles };
}

async function buildProfile(
  name: string,
  index: number,
  profile: unknown,
  baseDir: string,
  files: KeyStoreFiles,
  found: Findings,
): Promise<Profile | null> {
  const named = PROFILE_NAME_PATTERN.test(name);
  // A name that is not a profile name may be anything, a secret among them: it goes by its position.
  const at: At = { path: ['profiles', name], label: named ? `profiles.${name}` : `profiles[${index}]` };
  const before = found.problems.length;
  if (!named)
    found.problem(at.path, at.label, 'a profile name must be letters, digits, dot, dash and underscore, at most 63');
  if (!isRecord(profile)) {
    found.problem(at.path, at.label, 'must be an object with keys');
    return null;
  }
  const known = { ...PROFILE_FIELDS, ...LIMIT_FIELDS, keys: null };
  for (const field of Object.keys(profile))
    if (!(field in known))
      found.problem([...at.path, field], at.label, `a field a profile does not have (it has ${fieldList(known)})`);
  const signing: Partial<SigningOptions> = {};
  for (const [field, definition] of Object.entries(PROFILE_FIELDS)) {
    if (profile[field] === undefined) continue;
    const checked = checkField(definition, profile[field]);
    const place = child(at, field);
    if (!checked.ok) found.problem(place.path, place.label, `must be ${checked.allowed}`);
    else if (field !== 'upstreamUrl') (signing as Fields)[field] = checked.value;
  }
  let upstream: UpstreamTarget | null = null;
  if (typeof profile.upstreamUrl === 'string') {
    const url = parseUpstreamUrl(profile.upstreamUrl);
    const place = child(at, 'upstreamUrl');
    if (url.ok) upstream = url.value;
    else found.problem(place.path, place.label, `must be ${url.allowed}`);
  }
  const operations = readLimit(profile, at, found);
  const keys: StoredKey[] = [];
  const keysAt = child(at, 'keys');
  if (!Array.isArray(profile.keys) || profile.keys.length === 0)
    found.problem(keysAt.path, keysAt.label, 'must be a list of one key or more');
  else {
    // Each access key id, with the index of the key that has it first.
    const seen = new Map<string, number>();
    for (const [index, entry] of profile.keys.entries()) {
      const keyAt = { path: [...keysAt.path, index], label: `${keysAt.label}[${index}]` };
      const key = await buildKey(entry, index, keyAt, baseDir, files, found, seen);
      if (key) keys.push(key);
    }
  }
  return found.problems.length > before ? null : { name, keys, upstream, signing, operations };
}

/** The profile's limit on operations, each item checked in its place; null without `operations`. */
function readLimit(profile: Record<string, unknown>, at: At, found: Findings): OperationLimit | null {
  const enforceAt = child(at, 'enforce');
  if (profile.enforce !== undefined && typeof profile.enforce !== 'boolean')
    found.problem(enforceAt.path, enforceAt.label, `must be ${LIMIT_FIELDS.enforce.allowed}`);
  if (profile.operations === undefined) {
    if (profile.enforce !== undefined)
      found.problem(enforceAt.path, enforceAt.label, 'applies to operations, which this profile does not have');
    return null;
  }
  const listAt = child(at, 'operations');
  if (!Array.isArray(profile.operations)) {
    found.problem(listAt.path, listAt.label, `must be ${LIMIT_FIELDS.operations.allowed}`);
    return null;
  }
  const items: OperationItem[] = [];
  profile.operations.forEach((entry: unknown, index: number) => {
    const read = readOperationItem(entry);
    if (read.ok) items.push(read.item);
    else found.problem([...listAt.path, index], `${listAt.label}[${index}]`, read.problem);
  });
  return operationLimit(items, profile.enforce !== false);
}

async function buildKey(
  entry: unknown,
  index: number,
  at: At,
  baseDir: string,
  files: KeyStoreFiles,
  found: Findings,
  seen: Map<string, number>,
): Promise<StoredKey | null> {
  if (!isRecord(entry)) {
    found.problem(at.path, at.label, 'must be an object with accessKeyId and secret or secretFile');
    return null;
  }
  const before = found.problems.length;
  for (const field of Object.keys(entry))
    if (!(field in KEY_FIELDS))
      found.problem([...at.path, field], at.label, `a field a key does not have (it has ${fieldList(KEY_FIELDS)})`);
  const value: Fields = {};
  for (const [field, definition] of Object.entries(KEY_FIELDS)) {
    if (entry[field] === undefined) continue;
    const checked = checkField(definition, entry[field]);
    const place = child(at, field);
    if (checked.ok) value[field] = checked.value;
    else found.problem(place.path, place.label, `must be ${checked.allowed}`);
  }
  const id = value.accessKeyId as string | undefined;
  const idAt = child(at, 'accessKeyId');
  if (entry.accessKeyId === undefined) found.problem(at.path, idAt.label, 'required, the access key id');
  if (id !== undefined) {
    const first = seen.get(id);
    if (first !== undefined)
      found.problem(idAt.path, idAt.label, `the same as keys[${first}].accessKeyId; a profile lists each key once`);
    else seen.set(id, index);
  }
  const notBefore = typeof value.notBefore === 'string' ? Date.parse(value.notBefore) : null;
  const notAfter = typeof value.notAfter === 'string' ? Date.parse(value.notAfter) : null;
  if (notBefore !== null && notAfter !== null && notBefore >= notAfter)
    found.problem(at.path, at.label, 'notBefore must be earlier than notAfter');
  const secret = await readSecret(entry, value, at, baseDir, files, found);
  if (found.problems.length > before || id === undefined || secret === null) return null;
  return { key: createAccessKey(id, secret), notBefore, notAfter };
}

/** Where a key's secretFile is: relative to the store's directory, unless absolute. */
export function secretFilePath(baseDir: string, secretFile: string): string {
  return isAbsolute(secretFile) ? secretFile : join(baseDir, secretFile);
}

/** A key's secretFile, without the one trailing newline files end with. */
export async function readSecretFile(files: KeyStoreFiles, baseDir: string, secretFile: string): Promise<string> {
  return (await files.readFile(secretFilePath(baseDir, secretFile), FILE_LIMITS.secret)).replace(/\r?\n$/, '');
}

async function readSecret(
  entry: Fields,
  value: Fields,
  at: At,
  baseDir: string,
  files: KeyStoreFiles,
  found: Findings,
): Promise<string | null> {
  if ((entry.secret === undefined) === (entry.secretFile === undefined)) {
    found.problem(at.path, at.label, 'give exactly one of secret and secretFile');
    return null;
  }
  const warnEdges = (secret: string, where: string): void => {
    const whitespace = secretWhitespaceProblem(secret);
    if (whitespace) found.warning(at.path, at.label, `the secret ${where}${whitespace}`);
  };
  if (typeof value.secret === 'string') {
    warnEdges(value.secret, '');
    return value.secret;
  }
  if (typeof value.secretFile !== 'string') return null;
  // A path that could not be read is not quoted: it may be a secret written in its place.
  const fileAt = child(at, 'secretFile');
  try {
    const secret = await readSecretFile(files, baseDir, value.secretFile);
    if (secret === '') {
      found.problem(fileAt.path, fileAt.label, `${value.secretFile} is empty`);
      return null;
    }
    warnEdges(secret, `in ${value.secretFile} `);
    found.secretFiles.push({
      label: fileAt.label,
      secretFile: value.secretFile,
      path: secretFilePath(baseDir, value.secretFile),
    });
    return secret;
  } catch (error) {
    found.problem(fileAt.path, fileAt.label, describeFileProblem(error));
    return null;
  }
}
