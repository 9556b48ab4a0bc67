// Where log lines go: a file descriptor (stdout), written in batches. Each line is encoded as it comes
// into one buffer that lives as long as the writer, and the buffer is written with one synchronous write
// per 16 KiB (about 50 request lines) instead of one per line. A line's string is garbage as soon as it
// is encoded, so lines never wait in the heap for their batch: kept there, a batch's strings outlive
// young collections and are copied into the old generation, and a new buffer per batch adds to the
// memory held under load.
//
// Why not pino.destination (sonic-boom): its write() measures the byte length of the growing batch on
// every line, which flattens the batch string each time (garbage and a UTF-8 scan of the whole batch
// per line), and it converts every written batch to a Buffer again afterwards: work that grows with
// the batch for every line, where this writer's grows with the line.
//
// Synchronous like pino's own default destination, so lines are in order and none waits in a queue of
// Node's at exit. A consumer that cannot keep up (EAGAIN on a non-blocking pipe, see main.ts) gets what
// it refused copied out of the buffer and kept for the next write; beyond `maxPendingChars` new lines
// are dropped and counted, never buffered without bound. At exit the last flush waits up to a given time
// for such a consumer.
//
// Lines that wait below a full batch are written out by a timer that the first of them starts and the
// write stops: an idle process has nothing pending and no timer, so logging never wakes it.
import { writeSync } from 'node:fs';
import { PendingLines } from './pending-lines.js';

export interface BatchedLineWriter {
  write(line: string): void;
  /** Writes out everything pending now, synchronously (at shutdown, and after `flushAfterMs` at low traffic). */
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
  /**
   * The longest a line waits for its batch: a pending line starts a timer of this length that writes it
   * out. Omitted: lines wait for a full batch or a flush.
   */
  readonly flushAfterMs?: number;
  /** Calls `run` once after `ms` without keeping the process alive (injected by tests). */
  readonly schedule?: (run: () => void, ms: number) => void;
}

const defaultWrite = (fd: number, data: Buffer): number => writeSync(fd, data);
const defaultSleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const RETRY_MS = 10;
const defaultSchedule = (run: () => void, ms: number): void => void setTimeout(run, ms).unref();

export function createBatchedLineWriter(options: BatchedLineWriterOptions): BatchedLineWriter {
  const batchChars = options.batchChars ?? 16 * 1024;
  const maxPendingChars = options.maxPendingChars ?? 16 * 1024 * 1024;
  const write = options.write ?? defaultWrite;
  const sleep = options.sleep ?? defaultSleep;
  const schedule = options.schedule ?? defaultSchedule;
  let flushScheduled = false;
  const lines = new PendingLines(batchChars);
  let dropped = 0;
  let droppedReported = 0;

  function reportDrops(): void {
    if (dropped === droppedReported) return;
    const event = 'log lines dropped: the log destination could not keep up';
    const droppedLines = dropped - droppedReported;
    lines.put(`${JSON.stringify({ level: 'warn', time: Date.now(), service: 'sfd-sidecar', droppedLines, event })}\n`);
    droppedReported = dropped;
  }

  /** Writes everything it can; what the destination refuses (EAGAIN) stays for the next call. */
  function drain(): void {
    reportDrops();
    const lost = lines.writeTo(options.fd, write);
    if (lost === undefined) return;
    dropped += lost;
    droppedReported = dropped;
  }

  const pending = (): boolean => !lines.empty || dropped !== droppedReported;

  /** Starts the timer that writes out what waits, unless one is running or there is no time limit. */
  function scheduleFlush(): void {
    if (flushScheduled || options.flushAfterMs === undefined || !pending()) return;
    flushScheduled = true;
    schedule(() => {
      flushScheduled = false;
      drain();
      // What the destination refused waits for the next timer.
      scheduleFlush();
    }, options.flushAfterMs);
  }

  return {
    write(line) {
      if (lines.heldBytes + line.length > maxPendingChars) {
        dropped += 1;
        scheduleFlush();
        return;
      }
      lines.put(line);
      if (lines.bufferedBytes >= batchChars) drain();
      scheduleFlush();
    },
    flush(callback) {
      drain();
      callback?.();
    },
    flushWaiting(maxWaitMs) {
      drain();
      for (let waited = 0; lines.refused && waited < maxWaitMs; waited += RETRY_MS) {
        sleep(RETRY_MS);
        drain();
      }
      return !lines.refused;
    },
    droppedLines: () => dropped,
  };
}
