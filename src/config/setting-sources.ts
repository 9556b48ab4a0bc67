// Merges the three sources of setting values: flags win over the environment, which wins over the
// dotenv file (SFD_ENV_FILE, default ./.env when present). The only module that imports dotenv.
import { parse as parseDotenv } from 'dotenv';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { ConfigError } from './config-error.js';
import type { SettingValues } from './setting-reader.js';
import { SETTINGS } from './settings.js';

export interface SettingSources {
  /** Values given as flags, keyed by environment variable name. */
  readonly flags: SettingValues;
  readonly env: SettingValues;
  /** Reads a regular file as UTF-8, or returns null when it does not exist; throws on other failures. */
  readonly readFileIfExists: (path: string, maxBytes: number) => string | null;
}

export function mergeSettingSources({ flags, env, readFileIfExists }: SettingSources): SettingValues {
  const named = flags[SETTINGS.envFile.env] ?? env[SETTINGS.envFile.env];
  const path = named ?? '.env';
  let text: string | null;
  try {
    text = readFileIfExists(path, FILE_LIMITS.dotenv);
  } catch (error) {
    throw new ConfigError([`${SETTINGS.envFile.env}: must name a readable dotenv file (${JSON.stringify(path)}: ${describeFileProblem(error)})`]);
  }
  if (text === null && named !== undefined) {
    throw new ConfigError([`${SETTINGS.envFile.env}: must name an existing dotenv file (${JSON.stringify(path)} does not exist)`]);
  }
  const fromFile = text === null ? {} : parseDotenv(text);
  return Object.freeze({ ...fromFile, ...definedOnly(env), ...definedOnly(flags) });
}

function definedOnly(values: SettingValues): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value !== undefined) result[name] = value;
  return result;
}
