// The command line: `sfd-sidecar [serve|sign|emulator|keys|notify|doctor|wait-ready] [--x-y value ...]`, over injected I/O.
import { ConfigError } from './config/config-error.js';
import { mergeSettingSources } from './config/setting-sources.js';
import { SETTING_LIST, flagFor } from './config/settings.js';
import type { CommandResult } from './cli/cli-io.js';
import { DOCTOR_OPTIONS, EMULATOR_OPTIONS, KEYS_OPTIONS, NOTIFY_OPTIONS, SIGN_OPTIONS, WAIT_READY_OPTIONS } from './cli/command-options.js';
import { parseCommandLine, type OptionSpec } from './cli/parse-command-line.js';
import type { ServeDeps } from './cli/serve-command.js';
import { ListenError } from './server/listen.js';

const COMMANDS = ['serve', 'sign', 'emulator', 'keys', 'notify', 'doctor', 'wait-ready', 'inject', 'injector'] as const;
type CommandName = (typeof COMMANDS)[number];

const OWN_OPTIONS: Record<CommandName, OptionSpec> = {
  serve: {},
  sign: SIGN_OPTIONS,
  emulator: EMULATOR_OPTIONS,
  keys: KEYS_OPTIONS,
  notify: NOTIFY_OPTIONS,
  doctor: DOCTOR_OPTIONS,
  'wait-ready': WAIT_READY_OPTIONS,
  inject: {},
  injector: {},
};

export async function runCli(argv: readonly string[], deps: ServeDeps): Promise<CommandResult> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    deps.stdout(usage());
    return { exitCode: 0 };
  }
  const named = (COMMANDS as readonly string[]).includes(first ?? '');
  if (first !== undefined && !first.startsWith('-') && !named) {
    deps.stderr(`Unknown command ${JSON.stringify(first)}.\n\n${usage()}`);
    return { exitCode: 2 };
  }
  const command: CommandName = named ? (first as CommandName) : 'serve';
  const args = named ? rest : argv;
  try {
    const line = parseCommandLine(args, { ...OWN_OPTIONS[command], help: { type: 'boolean', short: 'h' } });
    if (line.options.help) {
      deps.stdout(usage());
      return { exitCode: 0 };
    }
    const values = mergeSettingSources({ flags: line.settings, env: deps.env, readFileIfExists: deps.readFileIfExists });
    // Each command's modules load only when it runs: `serve` stays small in memory.
    switch (command) {
      case 'serve':
        return { service: await (await import('./cli/serve-command.js')).serveCommand(values, deps) };
      case 'sign':
        return { exitCode: (await import('./cli/sign-command.js')).signCommand(values, line.options, deps) };
      case 'emulator':
        return { service: await (await import('./cli/emulator-command.js')).emulatorCommand(values, line.options, deps) };
      case 'keys':
        return { exitCode: await (await import('./cli/keys-command.js')).keysCommand(line.positionals, values, line.options, deps) };
      case 'doctor':
        return { exitCode: await (await import('./cli/doctor-command.js')).doctorCommand(values, line.options, deps) };
      case 'notify':
        return { exitCode: await (await import('./cli/notify-command.js')).notifyCommand(line.options, deps) };
      case 'wait-ready':
        return { exitCode: await (await import('./cli/wait-ready-command.js')).waitReadyCommand(values, line.options, deps) };
      case 'inject':
        return { exitCode: await (await import('./cli/inject-command.js')).injectCommand(line.positionals, values, deps) };
      case 'injector':
        return { service: await (await import('./cli/injector-command.js')).injectorCommand(values, deps) };
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      deps.stderr(`sfd-sidecar ${command}: ${error.message}\n`);
      return { exitCode: 2 };
    }
    if (error instanceof ListenError) {
      deps.stderr(`sfd-sidecar ${command}: ${error.message}\n`);
      return { exitCode: 1 };
    }
    throw error;
  }
}

export function usage(): string {
  const settings = SETTING_LIST.map((s) => `  ${flagFor(s.env).padEnd(28)} ${s.env.padEnd(28)} ${s.description}${s.defaultText ? ` (default ${s.defaultText})` : ''}`);
  return [
    'Usage: sfd-sidecar [serve] [settings]       run the signing sidecar (the demo when nothing is configured)',
    '       sfd-sidecar sign --url URL [--method M] [--header "X-SFD-Name: v"]... [--body TEXT | --body-file PATH]',
    '                        [--date yyyyMMddTHHmmssZ] [--nonce DIGITS] [--json] [settings]',
    '       sfd-sidecar emulator [--listen HOST:PORT] [settings]',
    '       sfd-sidecar keys check FILE | keys list [--json] [settings] | keys schema',
    '       sfd-sidecar doctor [--profile NAME] [--json] [settings]',
    '       sfd-sidecar wait-ready [--timeout-ms N] [settings]   wait until /readyz on SFD_ADMIN_LISTEN answers 200 (a postStart hook)',
    '       sfd-sidecar inject [settings] FILE|- ...   print the manifests with the sidecar added to every pod template',
    '       sfd-sidecar injector [settings]   serve the admission webhook that adds the sidecar to pods',
    '       sfd-sidecar notify --url URL --status started|ended|error [--recording-id ID] [--stream-id ID] [--type recording|stream-status]',
    '',
    'Settings (flag, environment variable, meaning); flags win over the environment, which wins over the dotenv file:',
    ...settings,
    '',
  ].join('\n');
}
