// SFD_NOTIFY_DEAD_LETTER_DIR: every notification refused as invalid is appended, one JSON line each,
// to notifications-dead-letter.jsonl there, so that nothing is lost.
import { appendFile } from 'node:fs/promises';
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

export type DeadLetterWriter = (letter: DeadLetter) => Promise<void>;

export function createDeadLetterWriter(dir: string): DeadLetterWriter {
  const path = join(dir, DEAD_LETTER_FILE);
  let queue: Promise<void> = Promise.resolve();
  return (letter) => {
    // One append at a time, so that lines never interleave. The chain goes on past a failed append (a
    // full disk): that letter's caller is told, and the next letters are written once the cause is gone.
    const append = queue.then(() => appendFile(path, `${JSON.stringify(letter)}\n`, { mode: 0o600 }));
    queue = append.catch(() => undefined);
    return append;
  };
}
