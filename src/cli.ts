// The command line: `sfd-sidecar [COMMAND] [options] [settings]` over injected I/O, in four steps: the
// version or help, the command named (serve when none is), its command line and settings read, then the
// command run by its row of the command table (cli/commands.ts), which loads its modules only then.
import { ConfigError } from './config/config-error.js';
import { didYouMean } from './config/nearest-name.js';
import { mergeSettingSources } from './config/setting-sources.js';
import { settingWarnings } from './config/unknown-settings.js';
import { SETTING_NAMES } from './settings/all-settings.js';
import type { CommandResult, ServeDeps } from './command/cli-io.js';
import type { CommandSettings } from './command/command-settings.js';
import type { CommandDefinition } from './cli/command-definition.js';
import { COMMAND_NAMES, commandNamed } from './cli/commands.js';
import { commandHelp, mainHelp } from './cli/help.js';
import { parseCommandLine, type CommandLine } from './cli/parse-command-line.js';
import { ListenError } from './server/listen.js';
import { VERSION } from './version.js';

export async function runCli(argv: readonly string[], deps: ServeDeps): Promise<CommandResult> {
  const answered = answerVersionOrHelp(argv, deps);
  if (answered) return answered;
  const chosen = chooseCommand(argv, deps);
  if (!('command' in chosen)) return chosen;
  const { command, args } = chosen;
  if (command.service) deps.holdSignals?.();
  try {
    return await runCommand(command, args, deps);
  } catch (error) {
    return reportFailure(command, error, deps);
  }
}

/** `--version` and `--help` (or `help COMMAND`) answer at once; null for anything else. */
function answerVersionOrHelp([first, second]: readonly string[], deps: ServeDeps): CommandResult | null {
  if (first === '--version' || first === '-V' || first === 'version') {
    deps.stdout(`sfd-sidecar ${VERSION}\n`);
    return { exitCode: 0 };
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const asked = second === undefined ? undefined : commandNamed(second);
    deps.stdout(asked ? commandHelp(asked) : mainHelp(VERSION));
    return { exitCode: 0 };
  }
  return null;
}

/** The command the first word names and the words after it; serve with every word when the first is a flag. */
function chooseCommand(
  argv: readonly string[],
  deps: ServeDeps,
): { readonly command: CommandDefinition; readonly args: readonly string[] } | CommandResult {
  const [first, ...rest] = argv;
  if (first === undefined || first.startsWith('-')) return { command: commandNamed('serve')!, args: argv };
  const named = commandNamed(first);
  if (named) return { command: named, args: rest };
  deps.stderr(
    `sfd-sidecar: ${JSON.stringify(first)} is not a command${didYouMean(first, COMMAND_NAMES)}\n\n${mainHelp(VERSION)}`,
  );
  return { exitCode: 2 };
}

/** Reads the command's line and settings, then runs it (or prints its help). */
async function runCommand(
  command: CommandDefinition,
  args: readonly string[],
  deps: ServeDeps,
): Promise<CommandResult> {
  const line = parseCommandLine(args, command.options, command.name);
  if (line.help) {
    deps.stdout(commandHelp(command));
    return { exitCode: 0 };
  }
  if (!command.positionals && line.positionals.length > 0) {
    throw new ConfigError([
      `${JSON.stringify(line.positionals[0])}: sfd-sidecar ${command.name} takes no arguments besides its flags`,
    ]);
  }
  const settings = readSettings(line, deps);
  // Before anything else, whatever follows: a misspelt name explains the problems after it (a setting
  // said to be missing), and a banner or a failure must not hide it. serve and injector also log them.
  for (const warning of settings.warnings) deps.stderr(`sfd-sidecar ${command.name}: warning: ${warning}\n`);
  return command.run({ positionals: line.positionals, options: line.options, settings }, deps);
}

/** The settings of the flags, the environment and the dotenv file, with the warnings about them. */
function readSettings(line: CommandLine, deps: ServeDeps): CommandSettings {
  const merged = mergeSettingSources({
    flags: line.settings,
    env: deps.env,
    readFileIfExists: deps.readFileIfExists,
  });
  return { ...merged, warnings: settingWarnings(merged, SETTING_NAMES) };
}

/** A bad configuration exits 2 and a listener that cannot listen 1, each with one line; anything else is a bug. */
function reportFailure(command: CommandDefinition, error: unknown, deps: ServeDeps): CommandResult {
  if (error instanceof ConfigError) {
    deps.stderr(`sfd-sidecar ${command.name}: ${error.message}\n`);
    return { exitCode: 2 };
  }
  if (error instanceof ListenError) {
    deps.stderr(`sfd-sidecar ${command.name}: ${error.message}\n`);
    return { exitCode: 1 };
  }
  throw error;
}
