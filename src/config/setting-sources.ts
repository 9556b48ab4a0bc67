// Merges the three sources of setting values: flags win over the environment, which wins over the
// dotenv file (SFD_ENV_FILE, default ./.env when present). Each value remembers where it came from,
// so that a problem with it can say. The only module that imports dotenv.
import { parse as parseDotenv } from 'dotenv';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { ConfigError } from './config-error.js';
import { SETTINGS } from './settings.js';

export type SettingValues = Readonly<Record<string, string | undefined>>;

/** Where a value came from, in words for messages. */
export type SettingSource = 'flag' | 'environment' | 'dotenv file';

export interface MergedSettings {
  readonly values: SettingValues;
  /** The source of each value, by variable name. */
  readonly sources: Readonly<Record<string, SettingSource>>;
  /** The dotenv file read, or null. */
  readonly dotenvFile: string | null;
  /** Lines of the dotenv file that are not NAME=value, by line number (never their text). */
  readonly unreadDotenvLines: readonly number[];
}

export interface SettingSourcesInput {
  /** Values given as flags, keyed by environment variable name. */
  readonly flags: SettingValues;
  readonly env: SettingValues;
  /** Reads a regular file as UTF-8, or returns null when it does not exist; throws on other failures. */
  readonly readFileIfExists: (path: string, maxBytes: number) => string | null;
}

export function mergeSettingSources({ flags, env, readFileIfExists }: SettingSourcesInput): MergedSettings {
  const envFile = SETTINGS.envFile.env;
  const named = flags[envFile] ?? env[envFile];
  const path = named ?? SETTINGS.envFile.default;
  let text: string | null;
  try {
    text = readFileIfExists(path, FILE_LIMITS.dotenv);
  } catch (error) {
    throw new ConfigError([
      `${envFile}: must name a readable dotenv file (${JSON.stringify(path)}: ${describeFileProblem(error)})`,
    ]);
  }
  if (text === null && named !== undefined) {
    throw new ConfigError([`${envFile}: must name an existing dotenv file (${JSON.stringify(path)} does not exist)`]);
  }
  const fromFile = text === null ? {} : parseDotenv(text);
  const values: Record<string, string> = {};
  const sources: Record<string, SettingSource> = {};
  for (const [source, entries] of [
    ['dotenv file', fromFile],
    ['environment', env],
    ['flag', flags],
  ] as const) {
    for (const [name, value] of Object.entries(entries)) {
      if (value === undefined) continue;
      values[name] = value;
      sources[name] = source;
    }
  }
  return {
    values: Object.freeze(values),
    sources: Object.freeze(sources),
    dotenvFile: text === null ? null : path,
    unreadDotenvLines: text === null ? [] : unreadLines(text),
  };
}

/**
 * Lines dotenv skips without a word: neither blank, a comment, nor NAME=value (dotenv's own grammar:
 * an optional `export `, a name of letters, digits, `_`, `.` and `-`, then `=` or `:`). A value in
 * quotes may run over several lines; those are part of their entry.
 */
function unreadLines(text: string): number[] {
  const unread: number[] = [];
  const lines = text.split(/\r?\n/);
  let openQuote: string | null = null;
  lines.forEach((line, index) => {
    if (openQuote !== null) {
      if (line.includes(openQuote)) openQuote = null;
      return;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const entry = /^(?:export\s+)?[\w.-]+\s*[=:]\s*(.*)$/.exec(trimmed);
    if (!entry) return void unread.push(index + 1);
    const value = entry[1] ?? '';
    const quote = /^["'`]/.exec(value)?.[0];
    if (quote && !value.slice(1).includes(quote)) openQuote = quote;
  });
  return unread;
}
