// The sentence for an input that holds nothing a command reads (empty, blank, an empty List): such an
// input is what a pipe gives when the command before it failed, so it is an error, never a pass.

/** `sfd-sidecar COMMAND: SOURCE holds no ...: expected ..., as `PRODUCE` prints it`. */
export function nothingToRead(command: string, source: string, expected: string, produce: string): string {
  const where = source === '-' ? 'standard input' : source;
  return (
    `sfd-sidecar ${command}: nothing to ${command}: ${where} holds no ${expected}. ` +
    `Expected what \`${produce}\` prints; when it is piped in, run the shell with \`set -o pipefail\` so that ` +
    `a failed kubectl fails the pipe too\n`
  );
}
