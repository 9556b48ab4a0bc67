// What shell completion offers, derived from the command table and the settings registry: each
// command with its summary, its flags (own options and the settings it reads, each with its one-line
// description and, where they are a few words, its values) and the actions its first argument names.
import type { CommandDescription } from './command-definition.js';
import { flagFor, isReadBy } from '../config/setting-definition.js';
import { SETTING_LIST } from '../settings/all-settings.js';

export interface CompletedFlag {
  /** `--name`. */
  readonly long: string;
  /** `-x`, when it has one. */
  readonly short?: string;
  readonly description: string;
  /** Whether a value follows it. */
  readonly takesValue: boolean;
  /** Its values, when they are a few words. */
  readonly choices?: readonly string[];
}

export interface CompletedCommand {
  readonly name: string;
  readonly summary: string;
  readonly flags: readonly CompletedFlag[];
  readonly subcommands: readonly string[];
  /** Whether it takes file arguments (or `-`). */
  readonly files: boolean;
}

/** The programs the scripts complete: the command, and its name as a kubectl plugin. */
export const COMPLETED_PROGRAMS = ['sfd-sidecar', 'kubectl-sfd'] as const;

/** A description on one line, cut at its first clause so that a completion menu stays readable. */
const oneLine = (text: string): string => {
  const first = text.split(/(?<=[.;:])\s/)[0]!.replace(/[.;:]$/, '');
  return first.length > 80 ? `${first.slice(0, 77)}...` : first;
};

/** Values written `a, b or c` (a setting's allowed values), when that is all they say. */
function choicesOf(allowed: string): string[] | undefined {
  const words = allowed.split(/,\s*|\s+or\s+/);
  return words.length > 1 && words.every((word) => /^[a-z0-9-]+$/.test(word)) ? words : undefined;
}

export function completionModel(commands: readonly CommandDescription[]): CompletedCommand[] {
  const help: CompletedFlag = { long: '--help', short: '-h', description: 'this command’s help', takesValue: false };
  return commands.map((command) => {
    const own = command.options.map((option): CompletedFlag => ({
      long: `--${option.name}`,
      ...(option.short ? { short: `-${option.short}` } : {}),
      description: oneLine(option.description),
      takesValue: option.value !== undefined,
      ...(option.choices ? { choices: option.choices } : {}),
    }));
    const settings = SETTING_LIST.filter((setting) => isReadBy(setting, command.name)).map((setting): CompletedFlag => {
      const choices = choicesOf(setting.allowed);
      return {
        long: flagFor(setting.env),
        description: oneLine(setting.description),
        takesValue: true,
        ...(choices ? { choices } : {}),
      };
    });
    return {
      name: command.name,
      summary: oneLine(command.summary),
      flags: [...own, ...settings, help],
      subcommands: command.subcommands ?? [],
      files: command.positionals && command.name !== 'completion',
    };
  });
}
