// What a command may touch, injected by main.ts: arguments, environment, output, files, time.
import type { Logger } from '../observability/logger.js';

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads a regular file as UTF-8, at most `maxBytes` of it; throws when it cannot. */
  readonly readFile: (path: string, maxBytes: number) => string;
  /** The same, without blocking the event loop: for files read while serving. */
  readonly readFileAsync: (path: string, maxBytes: number) => Promise<string>;
  /** Reads a regular file as bytes, at most `maxBytes` of it; throws when it cannot. */
  readonly readFileBytes: (path: string, maxBytes: number) => Buffer;
  /** Reads a regular file as UTF-8, at most `maxBytes` of it, or null when it does not exist. */
  readonly readFileIfExists: (path: string, maxBytes: number) => string | null;
  /** Writes a new file only its owner can read; throws when it exists or cannot be written. */
  readonly writePrivateFile: (path: string, text: string) => void;
  /** Makes a directory and its missing parents, only their owner can enter; throws when it cannot. */
  readonly makePrivateDirectory: (path: string) => void;
  /** Reads standard input to its end as UTF-8, at most `maxBytes` of it; rejects beyond. */
  readonly readStdin: (maxBytes: number) => Promise<string>;
  readonly now: () => number;
  /**
   * Called before a service starts: signals from then on wait until the service runs, rather than
   * meet the default action that ends the process without a word (SIGHUP among them).
   */
  readonly holdSignals?: () => void;
}

/** A long-running command (serve, emulator): main.ts stops it on SIGTERM/SIGINT. */
export interface RunningService {
  /** Stops serving; `signal` names what asked for it, for the service's own log line. */
  stop(signal: string): Promise<void>;
  /** Re-reads what can change without a restart (the key store), on SIGHUP. */
  reload?(): void;
  /** Writes out buffered log lines synchronously (main.ts calls it when the process exits, however it exits). */
  flushLogs?(): void;
  /**
   * Logs, as one structured line, the error that is about to end the process (main.ts: an uncaught
   * exception, a failed shutdown). Without it, main.ts writes the error to stderr.
   */
  logFatal?(message: string, error: unknown): void;
}

export type CommandResult = { readonly exitCode: number } | { readonly service: RunningService };

/** What a service command (serve, injector, doctor) is given besides the I/O. */
export interface ServeDeps extends CliIo {
  readonly production: boolean;
  /** Overrides the logger (tests); otherwise JSON lines on stdout. */
  readonly logger?: Logger;
}
