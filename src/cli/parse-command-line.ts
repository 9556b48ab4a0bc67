// Turns argv into setting values (each SFD_X_Y as --x-y) plus a command's own options.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../config/config-error.js';
import type { SettingValues } from '../config/setting-reader.js';
import { SETTING_LIST, flagFor } from '../config/settings.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface CommandLine {
  /** Setting values given as flags, keyed by environment variable name. */
  readonly settings: SettingValues;
  /** The command's own options. */
  readonly options: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly positionals: readonly string[];
}

const SETTING_FLAGS: OptionSpec = Object.fromEntries(SETTING_LIST.map((s) => [flagFor(s.env).slice(2), { type: 'string' as const }]));

export function parseCommandLine(args: readonly string[], own: OptionSpec): CommandLine {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options: { ...SETTING_FLAGS, ...own }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  const settings: Record<string, string | undefined> = {};
  const options: Record<string, string | boolean | string[] | undefined> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (name in own) options[name] = value as string | boolean | string[];
    else settings[`SFD_${name.toUpperCase().replace(/-/g, '_')}`] = value as string;
  }
  return { settings, options, positionals: parsed.positionals };
}
