// Reads setting values one by one, collecting every problem (naming the setting and what is allowed,
// never echoing a secret) so that a command can report them all at once.
import { createAccessKey } from '../signing/access-key.js';
import {
  QUERY_PLACEMENTS,
  SIGNATURE_VERSIONS,
  V2_STRING_SHAPES,
  type AccessKey,
  type SigningOptions,
} from '../signing/types.js';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { ConfigError } from './config-error.js';
import { parseAccessKeyId, parseOneOf, type Parsed } from './parsers.js';
import { SETTINGS, type SettingDefinition, type SettingKey } from './settings.js';

export type SettingValues = Readonly<Record<string, string | undefined>>;

export interface FileReader {
  /** Reads a regular file as UTF-8, at most `maxBytes` of it; throws when it cannot. */
  readonly readFile: (path: string, maxBytes: number) => string;
}

export class SettingReader {
  readonly problems: string[] = [];
  constructor(
    private readonly values: SettingValues,
    private readonly files: FileReader,
  ) {}

  /** The raw text of a setting, undefined when unset or blank. */
  raw(key: SettingKey): string | undefined {
    const value = this.values[SETTINGS[key].env];
    return value === undefined || value.trim() === '' ? undefined : value;
  }

  read<T>(key: SettingKey, parse: (raw: string) => Parsed<T>, fallback: string): T | undefined;
  read<T>(key: SettingKey, parse: (raw: string) => Parsed<T>): T | undefined;
  read<T>(key: SettingKey, parse: (raw: string) => Parsed<T>, fallback?: string): T | undefined {
    const { env, secret }: SettingDefinition = SETTINGS[key];
    const text = this.raw(key) ?? fallback;
    if (text === undefined) return undefined;
    return this.parseFrom(env, text, parse, secret === true);
  }

  /**
   * A setting's text or, when it is unset, the first of the conventional variables every HTTP client
   * reads (HTTPS_PROXY...) that is set, with the name of the variable it came from.
   */
  rawWithFallback(key: SettingKey, conventional: readonly string[]): { readonly name: string; readonly text: string } | undefined {
    const own = this.raw(key);
    if (own !== undefined) return { name: SETTINGS[key].env, text: own };
    for (const name of conventional) {
      const value = this.values[name];
      if (value !== undefined && value.trim() !== '') return { name, text: value };
    }
    return undefined;
  }

  /** Parses a value read from the variable `name`; on failure records a problem naming it (never echoing a secret). */
  parseFrom<T>(name: string, text: string, parse: (raw: string) => Parsed<T>, secret: boolean): T | undefined {
    const parsed = parse(text);
    if (parsed.ok) return parsed.value;
    this.problems.push(`${name}: must be ${parsed.allowed}${secret ? '' : ` (got ${JSON.stringify(text)})`}`);
    return undefined;
  }

  /** Reads a file named by a setting; null when the setting is unset. */
  file(key: SettingKey, maxBytes: number): string | null {
    const path = this.raw(key);
    if (path === undefined) return null;
    try {
      return this.files.readFile(path, maxBytes);
    } catch (error) {
      this.problems.push(`${SETTINGS[key].env}: must name a readable regular file (${JSON.stringify(path)}: ${describeFileProblem(error)})`);
      return null;
    }
  }

  signingOptions(): SigningOptions {
    return Object.freeze({
      signatureVersion: this.read('signatureVersion', parseOneOf(SIGNATURE_VERSIONS), '2') ?? '2',
      v2StringShape: this.read('v2StringShape', parseOneOf(V2_STRING_SHAPES), 'spec') ?? 'spec',
      queryPlacement: this.read('queryPlacement', parseOneOf(QUERY_PLACEMENTS), 'body') ?? 'body',
    });
  }

  /** True when any of the single-key settings is given. */
  keyConfigured(): boolean {
    return this.raw('accessKeyId') !== undefined || this.raw('accessKeySecret') !== undefined || this.raw('accessKeySecretFile') !== undefined;
  }

  /** The single access key of SFD_ACCESS_KEY_ID and SFD_ACCESS_KEY_SECRET[_FILE]; problems when incomplete. */
  accessKey(): AccessKey | undefined {
    const { accessKeyId, accessKeySecret, accessKeySecretFile } = SETTINGS;
    const id = this.read('accessKeyId', parseAccessKeyId);
    if (this.raw('accessKeyId') === undefined) this.problems.push(`${accessKeyId.env}: required, the access key id to sign with`);
    const value = this.raw('accessKeySecret');
    const hasFile = this.raw('accessKeySecretFile') !== undefined;
    let secret: string | undefined;
    if (value !== undefined && hasFile) this.problems.push(`${accessKeySecret.env} and ${accessKeySecretFile.env}: set only one of them`);
    else if (value !== undefined) secret = value;
    else if (!hasFile) this.problems.push(`${accessKeySecret.env} or ${accessKeySecretFile.env}: one is required, the access key secret`);
    else {
      const text = this.file('accessKeySecretFile', FILE_LIMITS.secret);
      if (text !== null) {
        secret = text.replace(/\r?\n$/, '');
        if (secret === '') this.problems.push(`${accessKeySecretFile.env}: the file is empty; it must hold the access key secret`);
      }
    }
    return id !== undefined && secret ? createAccessKey(id, secret) : undefined;
  }

  /** Throws one ConfigError listing every problem, if there is any. */
  assertValid(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}
