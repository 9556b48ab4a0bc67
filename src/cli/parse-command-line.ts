// Turns argv into setting values (each SFD_X_Y as --x-y) plus a command's own options. A flag that is
// neither is an error naming the nearest real one.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../config/config-error.js';
import { didYouMean } from '../config/nearest-name.js';
import type { SettingValues } from '../config/setting-reader.js';
import { flagFor } from '../config/setting-definition.js';
import { SETTING_LIST } from '../settings/all-settings.js';
import type { OptionDefinition } from './command-definition.js';

type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface CommandLine {
  /** Setting values given as flags, keyed by environment variable name. */
  readonly settings: SettingValues;
  /** The command's own options. */
  readonly options: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly positionals: readonly string[];
  /** --help or -h was given. */
  readonly help: boolean;
}

const SETTING_FLAGS: OptionSpec = Object.fromEntries(
  SETTING_LIST.map((s) => [flagFor(s.env).slice(2), { type: 'string' as const }]),
);

export function parseCommandLine(
  args: readonly string[],
  own: readonly OptionDefinition[],
  command: string,
): CommandLine {
  const ownSpec: OptionSpec = Object.fromEntries(
    own.map((o) => [
      o.name,
      o.value === undefined
        ? { type: 'boolean' as const }
        : {
            type: 'string' as const,
            ...(o.multiple ? { multiple: true } : {}),
            ...(o.short ? { short: o.short } : {}),
          },
    ]),
  );
  const spec: OptionSpec = { ...SETTING_FLAGS, ...ownSpec, help: { type: 'boolean', short: 'h' } };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options: spec, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ConfigError([describeParseError(error as NodeJS.ErrnoException, args, spec, command)]);
  }
  const settings: Record<string, string | undefined> = {};
  const options: Record<string, string | boolean | string[] | undefined> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (name === 'help') continue;
    if (name in ownSpec) options[name] = value as string | boolean | string[];
    else settings[`SFD_${name.toUpperCase().replace(/-/g, '_')}`] = value as string;
  }
  return { settings, options, positionals: parsed.positionals, help: parsed.values.help === true };
}

/** parseArgs' own messages quote oddly and hint at `--`; these say what was wrong and what would do. */
function describeParseError(
  error: NodeJS.ErrnoException,
  args: readonly string[],
  spec: OptionSpec,
  command: string,
): string {
  const flags = Object.keys(spec).map((name) => `--${name}`);
  const given = args.find(
    (arg) => arg.startsWith('-') && !flags.includes(arg.split('=')[0]!) && arg !== '-h' && arg !== '-',
  );
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const flag = (given ?? '').split('=')[0]!;
      return (
        `${flag}: not a flag of sfd-sidecar ${command}${didYouMean(flag, flags)} (sfd-sidecar ${command} ` +
        `--help lists them)`
      );
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = /'(-[^' ]+)/.exec(error.message)?.[1] ?? 'a flag';
      return spec[flag.replace(/^-+/, '').split(' ')[0]!]?.type === 'boolean'
        ? `${flag}: takes no value`
        : `${flag}: needs a value, as ${flag} VALUE or ${flag}=VALUE`;
    }
    default:
      return `the command line cannot be read: ${error.message}`;
  }
}
