// Turns a key store file's text into a KeyStore, or into every problem found (issue #3: "validated
// whole"). Problems name the place in the file and never quote a secret.
import { dirname, isAbsolute, join } from 'node:path';
import { parseUpstreamUrl } from '../config/parsers.js';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { createAccessKey } from '../signing/access-key.js';
import type { KeyStore, Profile, StoredKey } from './key-store.js';
import { checkKeystoreShape, type KeystoreFileProfile } from './keystore-schema.js';
import { parseStructuredText } from './read-structured-text.js';

export type ParsedKeyStore = { readonly ok: true; readonly store: KeyStore } | { readonly ok: false; readonly problems: readonly string[] };

export interface KeyStoreFiles {
  /** Reads a secret file as UTF-8, at most `maxBytes` of it; throws when it cannot. */
  readonly readFile: (path: string, maxBytes: number) => Promise<string>;
}

export async function parseKeyStore(text: string, filePath: string, files: KeyStoreFiles): Promise<ParsedKeyStore> {
  const parsed = parseStructuredText(text, filePath);
  if (!parsed.ok) return { ok: false, problems: parsed.problems };
  const shape = checkKeystoreShape(parsed.value);
  if (!shape.ok) return { ok: false, problems: shape.problems };

  const problems: string[] = [];
  const profiles = new Map<string, Profile>();
  const entries = Object.entries(shape.value.profiles);
  if (entries.length === 0) problems.push('profiles: must hold at least one profile');
  for (const [name, profile] of entries) {
    const built = await buildProfile(name, profile, dirname(filePath), files, problems);
    if (built) profiles.set(name, built);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, store: { profiles } };
}

async function buildProfile(
  name: string,
  profile: KeystoreFileProfile,
  baseDir: string,
  files: KeyStoreFiles,
  problems: string[],
): Promise<Profile | null> {
  const at = `profiles.${name}`;
  const before = problems.length;
  let upstream = null;
  if (profile.upstreamUrl !== undefined) {
    const url = parseUpstreamUrl(profile.upstreamUrl);
    if (url.ok) upstream = url.value;
    else problems.push(`${at}.upstreamUrl: must be ${url.allowed}`);
  }
  const seen = new Set<string>();
  const keys: StoredKey[] = [];
  for (const [index, entry] of profile.keys.entries()) {
    const keyAt = `${at}.keys[${index}]`;
    if (seen.has(entry.accessKeyId)) problems.push(`${keyAt}.accessKeyId: ${entry.accessKeyId} appears twice in this profile`);
    seen.add(entry.accessKeyId);
    const notBefore = entry.notBefore === undefined ? null : Date.parse(entry.notBefore);
    const notAfter = entry.notAfter === undefined ? null : Date.parse(entry.notAfter);
    if (notBefore !== null && notAfter !== null && notBefore >= notAfter) problems.push(`${keyAt}: notBefore must be earlier than notAfter`);
    const secret = await readSecret(entry, keyAt, baseDir, files, problems);
    if (secret !== null) keys.push({ key: createAccessKey(entry.accessKeyId, secret), notBefore, notAfter });
  }
  if (problems.length > before) return null;
  const signing = {
    ...(profile.signatureVersion ? { signatureVersion: profile.signatureVersion } : {}),
    ...(profile.v2StringShape ? { v2StringShape: profile.v2StringShape } : {}),
    ...(profile.queryPlacement ? { queryPlacement: profile.queryPlacement } : {}),
  };
  return { name, keys, upstream, signing };
}

async function readSecret(
  entry: { secret?: string | undefined; secretFile?: string | undefined },
  keyAt: string,
  baseDir: string,
  files: KeyStoreFiles,
  problems: string[],
): Promise<string | null> {
  if ((entry.secret === undefined) === (entry.secretFile === undefined)) {
    problems.push(`${keyAt}: give exactly one of secret and secretFile`);
    return null;
  }
  if (entry.secret !== undefined) return entry.secret;
  const path = isAbsolute(entry.secretFile!) ? entry.secretFile! : join(baseDir, entry.secretFile!);
  try {
    const secret = (await files.readFile(path, FILE_LIMITS.secret)).replace(/\r?\n$/, '');
    if (secret !== '') return secret;
    problems.push(`${keyAt}.secretFile: ${entry.secretFile} is empty`);
  } catch (error) {
    problems.push(`${keyAt}.secretFile: ${entry.secretFile}: ${describeFileProblem(error)}`);
  }
  return null;
}
