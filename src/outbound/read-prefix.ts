// Reads the start of a response body, up to a limit, without losing the rest: used to look at an
// upstream error's `code` before deciding to retry or to pass the answer on.
import type { IncomingMessage } from 'node:http';

export interface BodyPrefix {
  readonly bytes: Buffer;
  /** True when the whole body was read; otherwise the rest is still in the stream (paused), unless cut off. */
  readonly complete: boolean;
  /** The response failed or closed before its end: the rest will never come. */
  readonly cutOff: boolean;
}

export function readPrefix(response: IncomingMessage, limit: number): Promise<BodyPrefix> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (complete: boolean, cutOff = false): void => {
      response.off('data', onData);
      response.off('end', onEnd);
      response.off('error', onCutOff);
      response.off('close', onCutOff);
      resolve({ bytes: Buffer.concat(chunks, size), complete, cutOff });
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
    // An upstream that resets in the middle of the body: 'error' (aborted), or only 'close' before 'end'.
    const onCutOff = (): void => done(false, true);
    response.on('data', onData);
    response.on('end', onEnd);
    response.on('error', onCutOff);
    response.on('close', onCutOff);
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
