// The command line: `sfd-sidecar [COMMAND] [options] [settings]` over injected I/O. The commands and
// their options are data (cli/commands.ts); each command's modules load only when it runs, so that
// `serve` stays small in memory.
import { ConfigError } from './config/config-error.js';
import { didYouMean } from './config/nearest-name.js';
import { mergeSettingSources } from './config/setting-sources.js';
import { settingWarnings } from './config/unknown-settings.js';
import type { CommandResult } from './command/cli-io.js';
import { COMMANDS, commandNamed } from './cli/commands.js';
import type { CommandSettings } from './command/command-settings.js';
import { commandHelp, mainHelp } from './cli/help.js';
import { parseCommandLine } from './cli/parse-command-line.js';
import type { ServeDeps } from './command/cli-io.js';
import { ListenError } from './server/listen.js';
import { VERSION } from './version.js';

export async function runCli(argv: readonly string[], deps: ServeDeps): Promise<CommandResult> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-V' || first === 'version') {
    deps.stdout(`sfd-sidecar ${VERSION}\n`);
    return { exitCode: 0 };
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const asked = rest[0] === undefined ? undefined : commandNamed(rest[0]);
    deps.stdout(asked ? commandHelp(asked) : mainHelp(VERSION));
    return { exitCode: 0 };
  }
  const named = first === undefined ? undefined : commandNamed(first);
  if (first !== undefined && !first.startsWith('-') && !named) {
    const names = COMMANDS.map((c) => c.name);
    deps.stderr(
      `sfd-sidecar: ${JSON.stringify(first)} is not a command${didYouMean(first, names)}\n\n${mainHelp(VERSION)}`,
    );
    return { exitCode: 2 };
  }
  const command = named ?? commandNamed('serve')!;
  const args = named ? rest : argv;
  if (command.service) deps.holdSignals?.();
  try {
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
    const merged = mergeSettingSources({
      flags: line.settings,
      env: deps.env,
      readFileIfExists: deps.readFileIfExists,
    });
    const settings: CommandSettings = { ...merged, warnings: settingWarnings(merged) };
    // Before anything else, whatever follows: a misspelt name explains the problems after it (a setting
    // said to be missing), and a banner or a failure must not hide it. serve and injector also log them.
    for (const warning of settings.warnings) deps.stderr(`sfd-sidecar ${command.name}: warning: ${warning}\n`);
    switch (command.name) {
      case 'serve':
        return { service: await (await import('./cli/serve-command.js')).serveCommand(settings, deps) };
      case 'sign':
        return { exitCode: (await import('./cli/sign-command.js')).signCommand(settings, line.options, deps) };
      case 'emulator':
        return {
          service: await (await import('./cli/emulator-command.js')).emulatorCommand(settings, line.options, deps),
        };
      case 'keys':
        return {
          exitCode: await (
            await import('./cli/keys-command.js')
          ).keysCommand(line.positionals, settings, line.options, deps),
        };
      case 'doctor':
        return {
          exitCode: await (await import('./cli/doctor-command.js')).doctorCommand(settings, line.options, deps),
        };
      case 'notify':
        return { exitCode: await (await import('./cli/notify-command.js')).notifyCommand(line.options, deps) };
      case 'wait-ready':
        return {
          exitCode: await (await import('./cli/wait-ready-command.js')).waitReadyCommand(settings, line.options, deps),
        };
      case 'inject':
        return {
          exitCode: await (
            await import('./injection/commands/inject-command.js')
          ).injectCommand(line.positionals, line.options, settings, deps),
        };
      case 'uninject':
        return {
          exitCode: await (
            await import('./injection/commands/uninject-command.js')
          ).uninjectCommand(line.positionals, deps),
        };
      case 'audit':
        return {
          exitCode: await (
            await import('./injection/commands/audit-command.js')
          ).auditCommand(line.positionals, line.options, deps),
        };
      case 'check':
        return {
          exitCode: await (
            await import('./injection/commands/check-command.js')
          ).checkCommand(line.positionals, line.options, settings, deps),
        };
      case 'policy':
        return {
          exitCode: await (
            await import('./injection/commands/policy-command.js')
          ).policyCommand(line.positionals, line.options, deps),
        };
      case 'completion':
        return { exitCode: (await import('./cli/completion-command.js')).completionCommand(line.positionals, deps) };
      case 'injector':
        return {
          service: await (await import('./injection/commands/injector-command.js')).injectorCommand(settings, deps),
        };
    }
  } catch (error) {
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
}
