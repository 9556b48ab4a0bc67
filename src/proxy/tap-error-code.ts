// Reads the `code` of an upstream error body while it streams to the caller, without delaying or
// altering it: a second `data` listener keeps the first few KiB and parses them at the end.
import type { IncomingMessage } from 'node:http';
import { errorCodeOf } from '../outbound/read-prefix.js';

const TAP_LIMIT = 8 * 1024;

export function tapErrorCode(
  response: IncomingMessage,
  prefix: Buffer | null,
  onCode: (code: string | null) => void,
): void {
  const chunks: Buffer[] = prefix ? [prefix] : [];
  let size = prefix?.length ?? 0;
  let reported = false;
  const report = (code: string | null): void => {
    if (reported) return;
    reported = true;
    onCode(code);
  };
  response.on('data', (chunk: Buffer) => {
    if (size >= TAP_LIMIT) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  response.once('end', () => report(size <= TAP_LIMIT ? errorCodeOf(Buffer.concat(chunks, size)) : null));
  response.once('close', () => report(null));
}
