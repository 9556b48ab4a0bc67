// The log lines a batched writer holds until they are written: one buffer, living as long as the writer,
// that each line is encoded into as it comes, and behind it a queue of what the destination has not
// taken yet (after EAGAIN or a short write), oldest first, written before the buffer. A queue, not one
// growing buffer: while a stalled reader refuses every write, each new batch is added once instead of
// copying the whole backlog again.

/** Writes bytes to a file descriptor, returning how many it took; throws as `writeSync` does. */
export type WriteBytes = (fd: number, data: Buffer) => number;

export class PendingLines {
  private readonly buffer: Buffer;
  private used = 0;
  private bufferedLines = 0;
  private readonly unwritten: { bytes: Buffer; lines: number }[] = [];
  private unwrittenBytes = 0;

  constructor(batchChars: number) {
    // Room for a full batch and the largest line that may start it (a UTF-16 code unit takes at most 3 bytes).
    this.buffer = Buffer.allocUnsafeSlow(Math.max(batchChars * 4, 64 * 1024));
  }

  /** Bytes in the buffer, waiting for their batch. */
  get bufferedBytes(): number {
    return this.used;
  }

  /** Bytes held in all: the buffer's and those the destination refused. */
  get heldBytes(): number {
    return this.used + this.unwrittenBytes;
  }

  /** Whether the destination has refused bytes it has not taken since. */
  get refused(): boolean {
    return this.unwritten.length > 0;
  }

  get empty(): boolean {
    return this.used === 0 && this.unwritten.length === 0;
  }

  /** Encodes a line into the buffer; one too long for the room left goes after the buffer, on its own. */
  put(line: string): void {
    if (this.used + line.length * 3 > this.buffer.length) this.queueBuffer();
    if (line.length * 3 > this.buffer.length) {
      const bytes = Buffer.from(line);
      this.unwritten.push({ bytes, lines: 1 });
      this.unwrittenBytes += bytes.length;
      return;
    }
    this.used += this.buffer.write(line, this.used, 'utf8');
    this.bufferedLines += 1;
  }

  /**
   * Writes everything it can; what the destination refuses (EAGAIN) stays for the next call. Returns
   * the lines lost when the destination is gone (EPIPE, EBADF), which are let go: logging must never
   * take a request down with it.
   */
  writeTo(fd: number, write: WriteBytes): number | undefined {
    let sent = 0;
    try {
      while (this.unwritten.length > 0) {
        const head = this.unwritten[0]!;
        const written = write(fd, head.bytes);
        this.unwrittenBytes -= written;
        if (written < head.bytes.length) head.bytes = head.bytes.subarray(written);
        else this.unwritten.shift();
      }
      // The usual case: nothing was refused before, and the buffer goes out without a copy.
      while (sent < this.used) sent += write(fd, this.buffer.subarray(sent, this.used));
      this.used = 0;
      this.bufferedLines = 0;
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return this.letGo();
      // What was refused waits in the queue, so that the next lines do not each try the write again.
      this.buffer.copyWithin(0, sent, this.used);
      this.used -= sent;
      this.queueBuffer();
      return undefined;
    }
  }

  /** The buffer's lines join the end of the queue as a copy, and the buffer is free again. */
  private queueBuffer(): void {
    if (this.used === 0) return;
    const bytes = Buffer.from(this.buffer.subarray(0, this.used));
    this.unwritten.push({ bytes, lines: this.bufferedLines });
    this.unwrittenBytes += bytes.length;
    this.used = 0;
    this.bufferedLines = 0;
  }

  /** Empties the buffer and the queue; returns how many lines they held. */
  private letGo(): number {
    let lines = this.bufferedLines;
    for (const batch of this.unwritten) lines += batch.lines;
    this.unwritten.length = 0;
    this.unwrittenBytes = 0;
    this.used = 0;
    this.bufferedLines = 0;
    return lines;
  }
}
