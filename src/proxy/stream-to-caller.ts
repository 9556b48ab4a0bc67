// Streams an upstream answer's body to the caller as it comes, never buffered. The answer's head is
// written with its first byte of body (or its end): until then nothing has reached the caller, so a
// gateway that stalls or fails after its headers can still be answered with one of the sidecar's
// errors. After that, a failure on either side cuts the other: a truncated body is never passed off as
// complete.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface AnswerStart {
  /** Writes the answer's head; false when it could not be written (the caller has been answered otherwise). */
  head(): boolean;
  /** The upstream failed before any byte of the answer reached the caller: answer with an error instead. */
  failedBeforeHead(error: Error): void;
  /** The upstream failed after the answer started: the caller's connection is about to be cut. */
  cut(error: Error): void;
}

/**
 * (stream.pipeline does the same, but builds an AbortError for every request it completes; `pipe`
 * adds and removes eight listeners per response: per-request work this path does without.)
 */
export function streamToCaller(response: IncomingMessage, outgoing: ServerResponse, start: AnswerStart): void {
  let started = false;
  let failed = false;
  /** Writes the head once; false when the answer cannot go on. */
  const begin = (): boolean => {
    if (started) return !failed;
    started = true;
    // A head Node refused has been answered with an error already; what the upstream does next is moot.
    if (!start.head()) failed = true;
    return !failed;
  };
  response.on('data', (chunk: Buffer) => {
    if (!begin()) return void response.destroy();
    if (!outgoing.write(chunk)) response.pause();
  });
  outgoing.on('drain', () => response.resume());
  response.on('end', () => {
    if (begin()) outgoing.end();
  });
  // `on`, not `once`: each of these is emitted at most once per message, and `once` allocates a
  // wrapper per listener per request.
  const fail = (error: Error): void => {
    if (failed) return;
    failed = true;
    if (outgoing.destroyed) return; // the caller went away first: the upstream was let go for it
    if (!started) {
      started = true;
      start.failedBeforeHead(error);
      return;
    }
    start.cut(error);
    outgoing.destroy();
  };
  // 'error' says why (a timeout, a reset); a close without an end and without an error is a cut too.
  response.on('error', fail);
  response.on('close', () => {
    if (!response.complete) fail(new Error('the upstream closed the connection in the middle of its answer'));
  });
  outgoing.on('close', () => {
    if (!response.complete) response.destroy();
  });
}
