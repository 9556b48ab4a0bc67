// SFD_NOTIFY_DEAD_LETTER_DIR: every notification refused as invalid is appended, one JSON line each,
// to notifications-dead-letter.jsonl there, so that nothing is lost. The file is capped at
// SFD_NOTIFY_DEAD_LETTER_MAX_BYTES, so that a flood of invalid events (a changed event format, a
// misbehaving sender holding the token) cannot fill the volume under the other files the pod needs; a
// letter that would pass the cap is refused like a failed append, and the service is asked to send it
// again once an operator has moved the file away.
import { constants } from 'node:fs';
import { access, appendFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface DeadLetter {
  readonly receivedAt: string;
  readonly id: string | null;
  readonly problems: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as received (UTF-8). */
  readonly body: string;
}

export const DEAD_LETTER_FILE = 'notifications-dead-letter.jsonl';

/** Keeps one letter; rejects when it could not (an error with a `code`: an errno name, or DEAD_LETTER_FULL). */
export type DeadLetterWriter = (letter: DeadLetter) => Promise<void>;

export class DeadLetterFullError extends Error {
  readonly code = 'DEAD_LETTER_FULL';
  constructor(
    readonly sizeBytes: number,
    readonly maxBytes: number,
  ) {
    super(`the dead-letter file holds ${sizeBytes} bytes; one more letter would pass its cap of ${maxBytes}`);
  }
}

/**
 * Why the directory cannot take the dead-letter file, or null when it can (checked at start, so that a
 * mistyped or read-only directory stops the relay at once instead of at the first invalid event).
 */
export async function deadLetterDirProblem(dir: string): Promise<string | null> {
  try {
    if (!(await stat(dir)).isDirectory()) return 'is not a directory';
    await access(dir, constants.W_OK | constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'does not exist';
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'is not writable by this process';
    return `cannot be used (${code ?? 'unknown error'})`;
  }
}

export function createDeadLetterWriter(dir: string, maxBytes: number): DeadLetterWriter {
  const path = join(dir, DEAD_LETTER_FILE);
  let queue: Promise<void> = Promise.resolve();
  return (letter) => {
    const line = `${JSON.stringify(letter)}\n`;
    // One append at a time, so that lines never interleave and the size read is the size appended to.
    // The chain goes on past a failed append (a full disk, the cap): that letter's caller is told, and
    // the next letters are written once the cause is gone. The size is read each time (invalid events
    // are rare), so a file an operator moved away or emptied counts from zero again.
    const append = queue.then(async () => {
      const size = await sizeOf(path);
      if (size + Buffer.byteLength(line) > maxBytes) throw new DeadLetterFullError(size, maxBytes);
      await appendFile(path, line, { mode: 0o600 });
    });
    queue = append.catch(() => undefined);
    return append;
  };
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}
