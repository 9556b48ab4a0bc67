// What a command is, as the command table describes it: its name, usage, own options and examples (what
// help, parsing and shell completion read), and how it runs. Apart from the table, so that a command's own
// module (completion) can read descriptions of commands without importing the table that loads it.
import type { CommandResult, ServeDeps } from '../command/cli-io.js';
import type { CommandSettings } from '../command/command-settings.js';

export interface OptionDefinition {
  readonly name: string;
  /** The value's placeholder in help; absent for a switch. */
  readonly value?: string;
  readonly description: string;
  /** May be given more than once. */
  readonly multiple?: boolean;
  /** A one-letter form, as kubectl users type it (`-n`). */
  readonly short?: string;
  /** The values it takes, when they are a few words (shell completion offers them). */
  readonly choices?: readonly string[];
}

/** What a command runs with: its arguments besides the flags, its own options and its settings. */
export interface CommandInput {
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly settings: CommandSettings;
}

/** A command as help and shell completion describe it. */
export interface CommandDescription {
  readonly name: string;
  readonly summary: string;
  /** Everything after `sfd-sidecar NAME` in the usage line. */
  readonly usage: string;
  readonly options: readonly OptionDefinition[];
  /** Whether the command takes positional arguments (files, actions). */
  readonly positionals: boolean;
  /** A service that runs until a signal stops it (SIGTERM, SIGINT) and reloads on SIGHUP. */
  readonly service?: true;
  /** The actions its first argument names (`keys check`), for help and shell completion. */
  readonly subcommands?: readonly string[];
  /** Command lines that show its use, each with what it does: the end of its help. */
  readonly examples: readonly (readonly [commandLine: string, what: string])[];
}

export interface CommandDefinition extends CommandDescription {
  /** Imports the command's module and runs it. */
  readonly run: (input: CommandInput, deps: ServeDeps) => Promise<CommandResult>;
}
