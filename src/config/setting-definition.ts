// What a setting is: its environment variable (the flag of SFD_X_Y is --x-y), what it means, how its text
// is read and what it may be, its default, whether it is a secret, and the commands that read it. Each
// feature declares its own settings with these; the registry assembles them into the one list that the
// readers, --help, docs/configuration.md and the chart's values schema derive from.
import { formatListen, type ListenAddress, type Parsed } from './parsers.js';

/**
 * The commands of a setting every command reads, the dispatcher reading it before any command runs. A
 * symbol rather than a word, so that a list method called on it fails to compile instead of answering.
 */
export const EVERY_COMMAND: unique symbol = Symbol('every command');

export interface SettingDefinition<T = unknown> {
  readonly env: `SFD_${string}`;
  readonly description: string;
  /** Reads the setting's text; on failure, says what is allowed. */
  readonly parse: (raw: string) => Parsed<T>;
  /** What a value may be, in words (help and docs). */
  readonly allowed: string;
  /** The value when the setting is not given; absent when there is none. */
  readonly default?: T;
  /** The default as shown, when it is not the value itself (another variable, a computed value). */
  readonly defaultText?: string;
  /** A secret: never repeated in errors, logs or output. */
  readonly secret?: boolean;
  /** The commands that read it, by their names in the command table, or every command. */
  readonly commands: readonly string[] | typeof EVERY_COMMAND;
}

/** A table of settings by key, as each feature declares them. */
export type SettingTable = Readonly<Record<string, SettingDefinition>>;

/** Keeps each definition's value type, so that readers get typed values. */
export const defineSettings = <T extends Record<string, SettingDefinition>>(table: T): T => table;

/** The value type of a setting. */
export type ValueType<D> = D extends SettingDefinition<infer T> ? T : never;

/** The commands that read the signing sidecar's settings: `serve`, and `doctor`, which checks them. */
export const SERVE_COMMANDS = ['serve', 'doctor'] as const;
/** The commands that inject a sidecar, and so read what it is given. */
export const INJECT_COMMANDS = ['inject', 'injector', 'check'] as const;

/** Whether the command of that name reads the setting. */
export const isReadBy = (setting: Pick<SettingDefinition, 'commands'>, command: string): boolean =>
  setting.commands === EVERY_COMMAND || setting.commands.includes(command);

/** --x-y for SFD_X_Y. */
export function flagFor(env: string): string {
  return `--${env.replace(/^SFD_/, '').toLowerCase().replace(/_/g, '-')}`;
}

/** The default as shown in help and docs; undefined when there is none. */
export function defaultTextOf(definition: SettingDefinition): string | undefined {
  if (definition.defaultText !== undefined) return definition.defaultText;
  const value = definition.default;
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'object' && value !== null)
    return 'port' in value ? formatListen(value as ListenAddress) : JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
