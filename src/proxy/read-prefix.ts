// Reads the start of a response body, up to a limit, without losing the rest: used to look at an
// upstream error's `code` before deciding to retry or to pass the answer on.
import type { IncomingMessage } from 'node:http';

export interface BodyPrefix {
  readonly bytes: Buffer;
  /** True when the whole body was read; otherwise the rest is still in the stream (paused). */
  readonly complete: boolean;
}

export function readPrefix(response: IncomingMessage, limit: number): Promise<BodyPrefix> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (complete: boolean): void => {
      response.off('data', onData);
      response.off('end', onEnd);
      response.off('error', onError);
      resolve({ bytes: Buffer.concat(chunks, size), complete });
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        response.pause();
        done(false);
      }
    };
    const onEnd = (): void => done(true);
    const onError = (): void => done(false);
    response.on('data', onData);
    response.on('end', onEnd);
    response.on('error', onError);
  });
}

/** The `code` of a JSON error body `{"code": ...}`, or null. */
export function errorCodeOf(body: Buffer): string | null {
  try {
    const value = JSON.parse(body.toString('utf8')) as { code?: unknown };
    return typeof value?.code === 'string' ? value.code : null;
  } catch {
    return null;
  }
}
