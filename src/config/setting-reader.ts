// Reads setting values by their definitions (each feature's table): each setting's text is parsed as its
// definition says, its default applied when it is not given. Every problem is collected, naming the
// setting, where its value came from and what is allowed, never echoing a secret, so that a command
// can report them all at once. Warnings (a value that works but is likely a mistake) are collected too.
import { quoteValue } from './quote-value.js';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { createAccessKey } from '../signing/access-key.js';
import type { AccessKey, SigningOptions } from '../signing/types.js';
import { ConfigError } from './config-error.js';
import type { Parsed } from './parsers.js';
import { secretWhitespaceProblem } from './secret-whitespace.js';
import type { SettingSource, SettingValues } from './setting-sources.js';
import type { SettingDefinition, ValueType } from './setting-definition.js';
import { SETTINGS } from './settings.js';

export type { SettingValues } from './setting-sources.js';

export interface FileReader {
  /** Reads a regular file as UTF-8, at most `maxBytes` of it; throws when it cannot. */
  readonly readFile: (path: string, maxBytes: number) => string;
}

/** A setting's value: with its default when it has one, else possibly undefined. */
export type ValueOf<D extends SettingDefinition> = D extends { readonly default: unknown }
  ? ValueType<D>
  : ValueType<D> | undefined;

export class SettingReader {
  readonly problems: string[] = [];
  readonly warnings: string[] = [];

  constructor(
    private readonly values: SettingValues,
    private readonly files: FileReader,
    private readonly sources: Readonly<Record<string, SettingSource>> = {},
  ) {}

  /** The raw text of a setting, undefined when unset or blank. */
  raw(setting: SettingDefinition): string | undefined {
    const value = this.values[setting.env];
    return value === undefined || value.trim() === '' ? undefined : value;
  }

  isSet(setting: SettingDefinition): boolean {
    return this.raw(setting) !== undefined;
  }

  /** The setting's value, or its default when it is not given (or not valid: the problem is recorded). */
  value<D extends SettingDefinition>(definition: D): ValueOf<D> {
    const text = this.raw(definition);
    if (text === undefined) return definition.default as ValueOf<D>;
    const parsed = this.parseFrom(definition.env, text, definition.parse, definition.secret === true);
    return (parsed ?? definition.default) as ValueOf<D>;
  }

  /**
   * A setting's text or, when it is unset, the first of the conventional variables every HTTP client
   * reads (HTTPS_PROXY...) that is set, with the name of the variable it came from.
   */
  rawWithFallback(
    setting: SettingDefinition,
    conventional: readonly string[],
  ): { readonly name: string; readonly text: string } | undefined {
    const own = this.raw(setting);
    if (own !== undefined) return { name: setting.env, text: own };
    for (const name of conventional) {
      const value = this.values[name];
      if (value !== undefined && value.trim() !== '') return { name, text: value };
    }
    return undefined;
  }

  /** ` (from the environment)` and the like, for messages about a variable's value. */
  from(name: string): string {
    const source = this.sources[name];
    return source ? ` (from the ${source})` : '';
  }

  /** Parses a value read from the variable `name`; on failure records a problem naming it (never echoing a secret). */
  parseFrom<T>(name: string, text: string, parse: (raw: string) => Parsed<T>, secret: boolean): T | undefined {
    const parsed = parse(text);
    if (parsed.ok) return parsed.value;
    const got = secret ? '' : ` (got ${quoteValue(parsed.shown ?? text)})`;
    this.problems.push(`${name}${this.from(name)}: must be ${parsed.allowed}${got}`);
    return undefined;
  }

  /** Reads a file named by a setting; null when the setting is unset. */
  file(setting: SettingDefinition, maxBytes: number): string | null {
    const path = this.raw(setting)?.trim();
    if (path === undefined) return null;
    try {
      return this.files.readFile(path, maxBytes);
    } catch (error) {
      const { env } = setting;
      this.problems.push(
        `${env}${this.from(env)}: must name a readable regular file (${JSON.stringify(path)}: ` +
          `${describeFileProblem(error)})`,
      );
      return null;
    }
  }

  signingOptions(): SigningOptions {
    return Object.freeze({
      signatureVersion: this.value(SETTINGS.signatureVersion),
      v2StringShape: this.value(SETTINGS.v2StringShape),
      queryPlacement: this.value(SETTINGS.queryPlacement),
    });
  }

  /** True when any of the single-key settings is given. */
  keyConfigured(): boolean {
    return (
      this.isSet(SETTINGS.accessKeyId) ||
      this.isSet(SETTINGS.accessKeySecret) ||
      this.isSet(SETTINGS.accessKeySecretFile)
    );
  }

  /** The single access key of SFD_ACCESS_KEY_ID and SFD_ACCESS_KEY_SECRET[_FILE]; problems when incomplete. */
  accessKey(): AccessKey | undefined {
    const { accessKeyId, accessKeySecret, accessKeySecretFile } = SETTINGS;
    const id = this.value(SETTINGS.accessKeyId);
    if (!this.isSet(SETTINGS.accessKeyId))
      this.problems.push(
        `${accessKeyId.env}: required, the access key id to sign with, unless ${SETTINGS.keystoreFile.env} ` +
          'names a key store',
      );
    const value = this.raw(SETTINGS.accessKeySecret);
    const hasFile = this.isSet(SETTINGS.accessKeySecretFile);
    let secret: string | undefined;
    if (value !== undefined && hasFile)
      this.problems.push(`${accessKeySecret.env} and ${accessKeySecretFile.env}: set only one of them`);
    else if (value !== undefined) {
      secret = value;
      const whitespace = secretWhitespaceProblem(value);
      if (whitespace)
        this.warnings.push(`${accessKeySecret.env}${this.from(accessKeySecret.env)}: the secret ${whitespace}`);
    } else if (!hasFile)
      this.problems.push(
        `${accessKeySecret.env} or ${accessKeySecretFile.env}: one is required, the access key secret`,
      );
    else {
      const text = this.file(SETTINGS.accessKeySecretFile, FILE_LIMITS.secret);
      if (text !== null) {
        secret = text.replace(/\r?\n$/, '');
        if (secret === '')
          this.problems.push(`${accessKeySecretFile.env}: the file is empty; it must hold the access key secret`);
        const whitespace = secretWhitespaceProblem(secret);
        if (whitespace)
          this.warnings.push(
            `${accessKeySecretFile.env}: the secret in ${this.raw(SETTINGS.accessKeySecretFile)?.trim()} ${whitespace}`,
          );
      }
    }
    return id !== undefined && secret ? createAccessKey(id, secret) : undefined;
  }

  /** Throws one ConfigError listing every problem, if there is any. */
  assertValid(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}
