// Turns a key store file's text into a KeyStore, or into every problem found, in one run: each profile
// and key is checked field by field, and the checks that need a field (windows, duplicates, secret
// files) run wherever that field is right. Problems name the place in the file and what is allowed,
// and never quote a value. Warnings are for what works but is likely a mistake.
import { dirname, isAbsolute, join } from 'node:path';
import { parseUpstreamUrl, type UpstreamTarget } from '../config/parsers.js';
import { PROFILE_NAME_PATTERN } from '../config/profile-parsers.js';
import { secretWhitespaceProblem } from '../config/secret-whitespace.js';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { createAccessKey } from '../signing/access-key.js';
import type { SigningOptions } from '../signing/types.js';
import type { KeyStore, Profile, StoredKey } from './key-store.js';
import { checkField, KEY_FIELDS, PROFILE_FIELDS } from './keystore-schema.js';
import { parseStructuredText } from './read-structured-text.js';

export type ParsedKeyStore =
  | { readonly ok: true; readonly store: KeyStore; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[]; readonly warnings: readonly string[] };

export interface KeyStoreFiles {
  /** Reads a secret file as UTF-8, at most `maxBytes` of it; throws when it cannot. */
  readonly readFile: (path: string, maxBytes: number) => Promise<string>;
}

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const fieldList = (fields: object): string => Object.keys(fields).join(', ');

/** Collects the problems and warnings of one file. */
class Findings {
  readonly problems: string[] = [];
  readonly warnings: string[] = [];
}

export async function parseKeyStore(text: string, filePath: string, files: KeyStoreFiles): Promise<ParsedKeyStore> {
  const parsed = parseStructuredText(text, filePath);
  if (!parsed.ok) return { ok: false, problems: parsed.problems, warnings: [] };
  const found = new Findings();
  const profiles = new Map<string, Profile>();
  const root = parsed.value;
  if (!isObject(root)) found.problems.push('(file): must be an object with "profiles"');
  else {
    for (const name of Object.keys(root))
      if (name !== 'profiles') found.problems.push(`(file): has no field "${name}" (a key store has profiles)`);
    const entries = isObject(root.profiles) ? Object.entries(root.profiles) : null;
    if (entries === null) found.problems.push('profiles: must be an object of profiles by name');
    else if (entries.length === 0) found.problems.push('profiles: must hold at least one profile');
    for (const [name, profile] of entries ?? []) {
      const built = await buildProfile(name, profile, dirname(filePath), files, found);
      if (built) profiles.set(name, built);
    }
  }
  return found.problems.length > 0
    ? { ok: false, problems: found.problems, warnings: found.warnings }
    : { ok: true, store: { profiles }, warnings: found.warnings };
}

async function buildProfile(
  name: string,
  profile: unknown,
  baseDir: string,
  files: KeyStoreFiles,
  found: Findings,
): Promise<Profile | null> {
  const at = `profiles.${name}`;
  const before = found.problems.length;
  if (!PROFILE_NAME_PATTERN.test(name))
    found.problems.push(`${at}: a profile name must be letters, digits, dot, dash and underscore, at most 63`);
  if (!isObject(profile)) {
    found.problems.push(`${at}: must be an object with keys`);
    return null;
  }
  const known = { ...PROFILE_FIELDS, keys: null };
  for (const field of Object.keys(profile))
    if (!(field in known)) found.problems.push(`${at}: has no field "${field}" (a profile has ${fieldList(known)})`);
  const signing: Partial<SigningOptions> = {};
  for (const [field, definition] of Object.entries(PROFILE_FIELDS)) {
    if (profile[field] === undefined) continue;
    const checked = checkField(definition, profile[field]);
    if (!checked.ok) found.problems.push(`${at}.${field}: must be ${checked.allowed}`);
    else if (field !== 'upstreamUrl') (signing as Fields)[field] = checked.value;
  }
  let upstream: UpstreamTarget | null = null;
  if (typeof profile.upstreamUrl === 'string') {
    const url = parseUpstreamUrl(profile.upstreamUrl);
    if (url.ok) upstream = url.value;
    else found.problems.push(`${at}.upstreamUrl: must be ${url.allowed}`);
  }
  const keys: StoredKey[] = [];
  if (!Array.isArray(profile.keys) || profile.keys.length === 0)
    found.problems.push(`${at}.keys: must be a list of one key or more`);
  else {
    const seen = new Set<string>();
    for (const [index, entry] of profile.keys.entries()) {
      const key = await buildKey(entry, `${at}.keys[${index}]`, baseDir, files, found, seen);
      if (key) keys.push(key);
    }
  }
  return found.problems.length > before ? null : { name, keys, upstream, signing };
}

async function buildKey(
  entry: unknown,
  at: string,
  baseDir: string,
  files: KeyStoreFiles,
  found: Findings,
  seen: Set<string>,
): Promise<StoredKey | null> {
  if (!isObject(entry)) {
    found.problems.push(`${at}: must be an object with accessKeyId and secret or secretFile`);
    return null;
  }
  const before = found.problems.length;
  for (const field of Object.keys(entry))
    if (!(field in KEY_FIELDS))
      found.problems.push(`${at}: has no field "${field}" (a key has ${fieldList(KEY_FIELDS)})`);
  const value: Fields = {};
  for (const [field, definition] of Object.entries(KEY_FIELDS)) {
    if (entry[field] === undefined) continue;
    const checked = checkField(definition, entry[field]);
    if (checked.ok) value[field] = checked.value;
    else found.problems.push(`${at}.${field}: must be ${checked.allowed}`);
  }
  const id = value.accessKeyId as string | undefined;
  if (entry.accessKeyId === undefined) found.problems.push(`${at}.accessKeyId: required, the access key id`);
  if (id !== undefined) {
    if (seen.has(id)) found.problems.push(`${at}.accessKeyId: ${id} appears twice in this profile`);
    seen.add(id);
  }
  const notBefore = typeof value.notBefore === 'string' ? Date.parse(value.notBefore) : null;
  const notAfter = typeof value.notAfter === 'string' ? Date.parse(value.notAfter) : null;
  if (notBefore !== null && notAfter !== null && notBefore >= notAfter)
    found.problems.push(`${at}: notBefore must be earlier than notAfter`);
  const secret = await readSecret(entry, value, at, baseDir, files, found);
  if (found.problems.length > before || id === undefined || secret === null) return null;
  return { key: createAccessKey(id, secret), notBefore, notAfter };
}

async function readSecret(
  entry: Fields,
  value: Fields,
  at: string,
  baseDir: string,
  files: KeyStoreFiles,
  found: Findings,
): Promise<string | null> {
  if ((entry.secret === undefined) === (entry.secretFile === undefined)) {
    found.problems.push(`${at}: give exactly one of secret and secretFile`);
    return null;
  }
  const warnEdges = (secret: string, where: string): void => {
    const whitespace = secretWhitespaceProblem(secret);
    if (whitespace) found.warnings.push(`${at}: the secret ${where}${whitespace}`);
  };
  if (typeof value.secret === 'string') {
    warnEdges(value.secret, '');
    return value.secret;
  }
  if (typeof value.secretFile !== 'string') return null;
  const path = isAbsolute(value.secretFile) ? value.secretFile : join(baseDir, value.secretFile);
  try {
    const secret = (await files.readFile(path, FILE_LIMITS.secret)).replace(/\r?\n$/, '');
    if (secret === '') {
      found.problems.push(`${at}.secretFile: ${value.secretFile} is empty`);
      return null;
    }
    warnEdges(secret, `in ${value.secretFile} `);
    return secret;
  } catch (error) {
    found.problems.push(`${at}.secretFile: ${value.secretFile}: ${describeFileProblem(error)}`);
    return null;
  }
}
