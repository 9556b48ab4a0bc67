// Reads the files the sidecar is given (key store, secret files, CA bundle, dotenv file) as plain
// files only. A path may lead anywhere once the kubelet's symlinks are followed: a FIFO would block the
// reader until someone writes to it, and a device such as /dev/zero never ends. The file is opened
// without blocking, checked to be a regular file, and read up to a cap; anything else is a problem
// with a description, never the file's text.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** The largest file of each kind the sidecar reads. */
export const FILE_LIMITS = {
  keyStore: 1024 * 1024,
  secret: 64 * 1024,
  caBundle: 4 * 1024 * 1024,
  dotenv: 1024 * 1024,
} as const;

/** Opening a FIFO for reading blocks until a writer comes, unless it is opened non-blocking. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** A file that is not a regular file, or is larger than allowed. */
export class FileReadError extends Error {
  constructor(
    readonly code: 'NOT_REGULAR_FILE' | 'TOO_LARGE',
    message: string,
  ) {
    super(message);
    this.name = 'FileReadError';
  }
}

/** Reads a regular file as UTF-8, at most `maxBytes` of it; throws FileReadError or a system error. */
export async function readRegularFile(path: string, maxBytes: number): Promise<string> {
  const handle = await open(path, OPEN_FLAGS);
  try {
    const reading = new CappedRead(checkStats(await handle.stat(), maxBytes), maxBytes);
    while (reading.took((await handle.read(reading.buffer, reading.length, reading.room(), null)).bytesRead));
    return reading.bytes().toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The same as readRegularFile, synchronously: for reads at start, before anything is served. */
export function readRegularFileSync(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const reading = new CappedRead(checkStats(fstatSync(fd), maxBytes), maxBytes);
    while (reading.took(readSync(fd, reading.buffer, reading.length, reading.room(), null)));
    return reading.bytes();
  } finally {
    closeSync(fd);
  }
}

/** @returns the file's size, once it is known to be a regular file within the cap */
function checkStats(stats: Stats, maxBytes: number): number {
  if (!stats.isFile()) throw new FileReadError('NOT_REGULAR_FILE', `not a regular file but ${kindOf(stats)}`);
  if (stats.size > maxBytes) throw tooLarge(maxBytes);
  return stats.size;
}

/**
 * A read into a buffer sized for the file, grown while it grows, and stopped one byte past the cap:
 * the file may change between the size check and the read.
 */
class CappedRead {
  buffer: Buffer;
  length = 0;
  constructor(
    size: number,
    private readonly maxBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  }

  room(): number {
    return this.buffer.length - this.length;
  }

  /** Counts a read's bytes; false once the file has ended. */
  took(bytesRead: number): boolean {
    if (bytesRead === 0) return false;
    this.length += bytesRead;
    if (this.length > this.maxBytes) throw tooLarge(this.maxBytes);
    if (this.room() === 0) {
      const larger = Buffer.allocUnsafe(Math.min(this.buffer.length * 2, this.maxBytes + 1));
      this.buffer.copy(larger, 0, 0, this.length);
      this.buffer = larger;
    }
    return true;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function tooLarge(maxBytes: number): FileReadError {
  return new FileReadError('TOO_LARGE', `larger than ${formatBytes(maxBytes)}, the most such a file may hold`);
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a directory';
  return 'something else';
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/** Why a file could not be read, in words: never its path's content, never its text. */
export function describeFileProblem(error: unknown): string {
  if (error instanceof FileReadError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'does not exist (ENOENT)';
    case 'EACCES':
    case 'EPERM':
      return `not readable by this process (${code}: check the file's mode, owner and group)`;
    case 'EISDIR':
      return 'not a regular file but a directory';
    case 'ELOOP':
      return 'a symlink loop (ELOOP)';
    default:
      return `unreadable (${code ?? 'unknown error'})`;
  }
}
