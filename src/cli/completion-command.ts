// `sfd-sidecar completion bash|zsh|fish`: prints the shell's completion script on stdout.
import type { CliIo } from '../command/cli-io.js';
import type { CommandDescription } from './command-definition.js';
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from './completion-scripts.js';

/** The commands come from the table that loads this module, which it cannot import back. */
export function completionCommand(
  positionals: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr'>,
  commands: readonly CommandDescription[],
): number {
  const [shell, ...rest] = positionals;
  if (!COMPLETION_SHELLS.includes(shell as CompletionShell) || rest.length > 0) {
    io.stderr(
      `usage: sfd-sidecar completion ${COMPLETION_SHELLS.join('|')}` +
        `${shell === undefined ? '' : ` (${JSON.stringify(shell)} is not one of them)`}\n`,
    );
    return 2;
  }
  io.stdout(completionScript(shell as CompletionShell, commands));
  return 0;
}
