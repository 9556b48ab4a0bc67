// Where log lines go: a file descriptor (stdout), written in batches. Lines are collected in an array
// and joined once per batch, then written with one synchronous write: one system call per 16 KiB of
// lines (about 50 request lines) instead of one per line, and never a copy of the whole batch per line.
//
// Why not pino.destination (sonic-boom): its write() measures the byte length of the growing batch on
// every line, which flattens the batch string each time (garbage and a UTF-8 scan of the whole batch
// per line), and it converts every written batch to a Buffer again afterwards: work that grows with
// the batch for every line, where this writer's grows with the line.
//
// Synchronous like pino's own default destination, so lines are in order and none waits in a queue of
// Node's at exit. A consumer that cannot keep up (EAGAIN on a non-blocking pipe, see main.ts) keeps the
// batches for the next write; beyond `maxPendingChars` new lines are dropped and counted, never
// buffered without bound. At exit the last flush waits up to a given time for such a consumer.
import { writeSync } from 'node:fs';

export interface BatchedLineWriter {
  write(line: string): void;
  /** Writes out everything pending now, synchronously (at shutdown, and on a timer at low traffic). */
  flush(callback?: () => void): void;
  /**
   * At the end of life: writes out everything pending, and while the destination refuses, tries again
   * every 10 ms for up to `maxWaitMs` (blocking: the process is about to exit). Returns whether
   * everything went out.
   */
  flushWaiting(maxWaitMs: number): boolean;
  /** Lines dropped because the destination could not keep up. */
  droppedLines(): number;
}

export interface BatchedLineWriterOptions {
  readonly fd: number;
  /** Write once this many characters are pending. */
  readonly batchChars?: number;
  /** Drop new lines while this many characters are pending and unwritable. */
  readonly maxPendingChars?: number;
  /** The write call, returning the bytes written (injected by tests to simulate a slow or failing destination). */
  readonly write?: (fd: number, data: Buffer) => number;
  /** Blocks for the given milliseconds (injected by tests). */
  readonly sleep?: (ms: number) => void;
}

const defaultWrite = (fd: number, data: Buffer): number => writeSync(fd, data);
const defaultSleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const RETRY_MS = 10;

export function createBatchedLineWriter(options: BatchedLineWriterOptions): BatchedLineWriter {
  const batchChars = options.batchChars ?? 16 * 1024;
  const maxPendingChars = options.maxPendingChars ?? 16 * 1024 * 1024;
  const write = options.write ?? defaultWrite;
  const sleep = options.sleep ?? defaultSleep;
  let lines: string[] = [];
  let lineChars = 0;
  /**
   * Batches the destination has not taken yet (after EAGAIN or a short write), oldest first, written
   * before any new line. A queue, not one growing buffer: while a stalled reader refuses every write,
   * each new batch is added once instead of copying the whole backlog again.
   */
  const unwritten: { bytes: Buffer; lines: number }[] = [];
  let unwrittenBytes = 0;
  let dropped = 0;
  let droppedReported = 0;

  /** The lines collected so far become one batch at the end of the queue. */
  function takeLines(): void {
    if (dropped > droppedReported) {
      const event = 'log lines dropped: the log destination could not keep up';
      const droppedLines = dropped - droppedReported;
      lines.push(
        `${JSON.stringify({ level: 'warn', time: Date.now(), service: 'sfd-sidecar', droppedLines, event })}\n`,
      );
      droppedReported = dropped;
    }
    if (lines.length === 0) return;
    const bytes = Buffer.from(lines.length === 1 ? lines[0]! : lines.join(''));
    unwritten.push({ bytes, lines: lines.length });
    unwrittenBytes += bytes.length;
    lines = [];
    lineChars = 0;
  }

  /** Writes everything it can; what the destination refuses (EAGAIN) stays for the next call. */
  function drain(): void {
    takeLines();
    try {
      while (unwritten.length > 0) {
        const head = unwritten[0]!;
        const written = write(options.fd, head.bytes);
        unwrittenBytes -= written;
        if (written < head.bytes.length) head.bytes = head.bytes.subarray(written);
        else unwritten.shift();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
        // The destination is gone (EPIPE, EBADF): logging must never take a request down with it.
        for (const batch of unwritten) dropped += batch.lines;
        droppedReported = dropped;
        unwritten.length = 0;
        unwrittenBytes = 0;
      }
    }
  }

  return {
    write(line) {
      if (lineChars + unwrittenBytes + line.length > maxPendingChars) {
        dropped += 1;
        return;
      }
      lines.push(line);
      lineChars += line.length;
      if (lineChars >= batchChars) drain();
    },
    flush(callback) {
      drain();
      callback?.();
    },
    flushWaiting(maxWaitMs) {
      drain();
      for (let waited = 0; unwritten.length > 0 && waited < maxWaitMs; waited += RETRY_MS) {
        sleep(RETRY_MS);
        drain();
      }
      return unwritten.length === 0;
    },
    droppedLines: () => dropped,
  };
}
