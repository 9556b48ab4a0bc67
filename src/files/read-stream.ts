// Reads a stream (standard input) to its end as UTF-8, within a cap.
import type { Readable } from 'node:stream';
import { FileReadError } from './regular-file.js';

export async function readStream(stream: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      throw new FileReadError('TOO_LARGE', `larger than ${maxBytes / (1024 * 1024)} MiB, the most it may hold`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
