// Reads a request body once into one buffer, never holding more than the limit (413 beyond it), nor
// more than the listener's body budget leaves (503 beyond it; body-budget.ts), nor waiting on a caller
// that sends slower than the minimum rate (408): a slow caller holds what it has sent, not what it
// declared, and not for long.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SidecarError } from '../errors.js';
import { continueIfAwaited } from './expect-continue.js';

/** The body of a request that declares none (shared; never written to). */
export const NO_BODY = Buffer.alloc(0);
const NO_BODY_READ = Promise.resolve(NO_BODY);

/** Time a body has before the minimum rate applies: a caller may pause once, as a connection starts. */
const RATE_GRACE_MS = 2000;

/** The budget of body bytes a listener holds at once, seen from one request. */
export interface BodyHold {
  /** True when `bytes` more would fit now: a declared length that cannot is refused before it is sent. */
  fits(bytes: number): boolean;
  /**
   * Takes bytes as they arrive, or returns false when they do not fit; the caller gives them back when the request
   * ends.
   */
  take(bytes: number): boolean;
}

export interface BodyLimits {
  /** Largest body accepted (413 beyond). */
  readonly maxBytes: number;
  /** The listener's body budget; none when omitted. */
  readonly hold?: BodyHold;
  /**
   * After the first two seconds, the body must have arrived at this average rate at least (408 below); 0: no minimum.
   */
  readonly minBytesPerSecond: number;
}

/**
 * @param outgoing the request's response, for the 100 Continue a client may wait for before it sends the body
 */
export function readBody(incoming: IncomingMessage, outgoing: ServerResponse, limits: BodyLimits): Promise<Buffer> {
  const { maxBytes, hold, minBytesPerSecond } = limits;
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.reject(new SidecarError('BodyTooLarge'));
  // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3): nothing to
  // wait for. Node discards the (empty) rest of the message itself.
  if (declaresNoBody(incoming)) return NO_BODY_READ;
  if (hold && declared !== undefined && !hold.fits(Number(declared)))
    return Promise.reject(new SidecarError('BodyBufferFull'));
  continueIfAwaited(outgoing);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const started = performance.now();
    const slow = (): boolean => {
      const elapsedMs = performance.now() - started;
      return (
        minBytesPerSecond > 0 &&
        elapsedMs > RATE_GRACE_MS &&
        size < (minBytesPerSecond * (elapsedMs - RATE_GRACE_MS)) / 1000
      );
    };
    // Checked each second as well as on each chunk: a caller that sends nothing more sends no chunk.
    const rateCheck =
      minBytesPerSecond > 0
        ? setInterval(() => {
            if (slow()) stop(new SidecarError('RequestTimeout'));
          }, 1000)
        : undefined;
    const stop = (error: SidecarError): void => {
      cleanup();
      incoming.pause();
      reject(error);
    };
    const cleanup = (): void => {
      clearInterval(rateCheck);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) return stop(new SidecarError('BodyTooLarge'));
      if (slow()) return stop(new SidecarError('RequestTimeout'));
      if (hold && !hold.take(chunk.length)) return stop(new SidecarError('BodyBufferFull'));
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
