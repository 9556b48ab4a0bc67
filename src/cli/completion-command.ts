// `sfd-sidecar completion bash|zsh|fish`: prints the shell's completion script on stdout.
import type { CliIo } from '../command/cli-io.js';
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from './completion-scripts.js';

export function completionCommand(positionals: readonly string[], io: Pick<CliIo, 'stdout' | 'stderr'>): number {
  const [shell, ...rest] = positionals;
  if (!COMPLETION_SHELLS.includes(shell as CompletionShell) || rest.length > 0) {
    io.stderr(
      `usage: sfd-sidecar completion ${COMPLETION_SHELLS.join('|')}` +
        `${shell === undefined ? '' : ` (${JSON.stringify(shell)} is not one of them)`}\n`,
    );
    return 2;
  }
  io.stdout(completionScript(shell as CompletionShell));
  return 0;
}
