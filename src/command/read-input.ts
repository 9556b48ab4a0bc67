// The input of a command that reads FILE, or `-` for standard input, whole and under a size bound.
import { describeFileProblem } from '../files/regular-file.js';
import type { CliIo } from './cli-io.js';

/** The text of FILE or of standard input (`-`); throws when it cannot be read or is larger than `maxBytes`. */
export function readSource(io: CliIo, source: string, maxBytes: number): Promise<string> {
  return source === '-' ? io.readStdin(maxBytes) : io.readFileAsync(source, maxBytes);
}

/** The same, or null once `sfd-sidecar COMMAND: SOURCE: problem` is on stderr. */
export async function readCommandInput(
  io: CliIo,
  command: string,
  source: string,
  maxBytes: number,
): Promise<string | null> {
  try {
    return await readSource(io, source, maxBytes);
  } catch (error) {
    io.stderr(`sfd-sidecar ${command}: ${source}: ${describeFileProblem(error)}\n`);
    return null;
  }
}
