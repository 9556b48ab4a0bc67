// Reads a request body once into one buffer, never holding more than the limit (413 beyond it), nor
// more than the listener's body budget leaves (503 beyond it; body-budget.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SidecarError } from '../errors.js';
import { continueIfAwaited } from '../server/expect-continue.js';

/** The body of a request that declares none (shared; never written to). */
export const NO_BODY = Buffer.alloc(0);
const NO_BODY_READ = Promise.resolve(NO_BODY);

/**
 * Takes bytes from the budget for this request's body, or returns false when they do not fit; the
 * caller gives them back when the request ends.
 */
export type HoldBytes = (bytes: number) => boolean;

/**
 * @param outgoing the request's response, for the 100 Continue a client may wait for before it sends the body
 * @param hold when given, a declared length is held before the body is asked for (a body that cannot fit
 *   is refused before it is sent), and a chunked body chunk by chunk as it arrives
 */
export function readBody(incoming: IncomingMessage, outgoing: ServerResponse, limit: number, hold?: HoldBytes): Promise<Buffer> {
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(new SidecarError('BodyTooLarge'));
  // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3): nothing to
  // wait for. Node discards the (empty) rest of the message itself.
  if (declaresNoBody(incoming)) return NO_BODY_READ;
  // With a Content-Length, Node's parser delivers exactly that many bytes (RFC 9112 §6.2).
  const holdEachChunk = hold !== undefined && declared === undefined;
  if (hold && declared !== undefined && !hold(Number(declared))) return Promise.reject(new SidecarError('BodyBufferFull'));
  continueIfAwaited(outgoing);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit || (holdEachChunk && !hold(chunk.length))) {
        cleanup();
        incoming.pause();
        reject(new SidecarError(size > limit ? 'BodyTooLarge' : 'BodyBufferFull'));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(new SidecarError('BadRequest', { cause: error }));
    };
    const onAborted = (): void => onError(new Error('request aborted'));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('aborted', onAborted);
  });
}

/** True when the request declares no body: no Transfer-Encoding and no or a zero Content-Length. */
export function declaresNoBody(incoming: IncomingMessage): boolean {
  const declared = incoming.headers['content-length'];
  return (declared === undefined || declared === '0') && incoming.headers['transfer-encoding'] === undefined;
}

/** True when the request has neither a Content-Length (not even 0) nor a Transfer-Encoding. */
export function declaresNoFraming(incoming: IncomingMessage): boolean {
  return incoming.headers['content-length'] === undefined && incoming.headers['transfer-encoding'] === undefined;
}
