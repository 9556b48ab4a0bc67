// Streams an upstream answer's body to the caller (design, "The path of one request": the response
// streams back unchanged, never buffered).
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Streams an upstream response to the caller, pausing the upstream while the caller's socket is full.
 * A failure on either side cuts the other: a truncated body is never passed off as complete.
 * (stream.pipeline does the same, but builds an AbortError for every request it completes; `pipe`
 * adds and removes eight listeners per response. Both showed in the profile.)
 */
export function streamToCaller(response: IncomingMessage, outgoing: ServerResponse): void {
  response.on('data', (chunk: Buffer) => {
    if (!outgoing.write(chunk)) response.pause();
  });
  outgoing.on('drain', () => response.resume());
  response.on('end', () => outgoing.end());
  // `on`, not `once`: each of these is emitted at most once per message, and `once` allocates a
  // wrapper per listener per request.
  response.on('error', () => outgoing.destroy());
  response.on('aborted', () => outgoing.destroy());
  outgoing.on('close', () => {
    if (!response.complete) response.destroy();
  });
}
