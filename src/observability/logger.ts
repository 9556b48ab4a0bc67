// Structured JSON logs (pino). Redaction by construction: a log line takes only flat primitive fields,
// so a key object or a request cannot be passed in whole, and any field whose name speaks of a secret,
// signature or authorization is replaced before it is written. The only module that imports pino.
import { pino, type DestinationStream } from 'pino';
import type { LogLevel } from '../config/settings.js';
import { createBatchedLineWriter, type BatchedLineWriter } from './batched-line-writer.js';

export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Readonly<Record<string, LogValue>>;

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
  /** The process is about to end (an uncaught exception). */
  fatal(event: string, fields?: LogFields): void;
  /**
   * The line `info` writes, for a line written once per request: serialized in one JSON.stringify call
   * instead of field by field by pino, the same bytes for a fraction of the work.
   */
  infoPerRequest(event: string, fields: LogFields): void;
  /**
   * Writes out anything buffered; called at the end of life. When stdout is full (a slow log
   * collector), waits up to a second for it to take the last lines.
   */
  flush(): void;
  /** Lines dropped because stdout could not keep up (0 for a destination that does not count them). */
  droppedLines(): number;
}

const FORBIDDEN_FIELD = /secret|signature|authorization|password|token/i;
export const REDACTED = '[redacted]';

export interface LoggerOptions {
  readonly level: LogLevel;
  /** Where lines go; defaults to stdout, written in synchronous batches. */
  readonly destination?: DestinationStream;
  /** The clock of each line's `time` (milliseconds since the epoch); Date.now when omitted. */
  readonly now?: () => number;
}

/** The fields every line carries after its level and time. */
const BASE_FIELDS = { service: 'sfd-sidecar' };
const BASE_JSON = JSON.stringify(BASE_FIELDS).slice(1, -1);

export function createLogger({ level, destination, now = Date.now }: LoggerOptions): Logger {
  // The batched stdout writer when no destination is given: it counts dropped lines and can wait at exit.
  const writer = destination ? null : batchedStdout();
  const sink = destination ?? writer!;
  /** The time field as pino places it after the level: a leading comma, then `"time":` and the clock. */
  const timeField = (): string => `,"time":${now()}`;
  const base = pino(
    {
      level,
      base: BASE_FIELDS,
      timestamp: timeField,
      messageKey: 'event',
      formatters: { level: (label) => ({ level: label }), log: scrubFields },
    },
    sink,
  );
  const write =
    (method: 'debug' | 'info' | 'warn' | 'error' | 'fatal') =>
    (event: string, fields?: LogFields): void => {
      if (fields) base[method](fields, event);
      else base[method](event);
    };
  const infoEnabled = base.isLevelEnabled('info');
  // pino's layout: level, time, the base fields, the line's fields in their order (undefined ones left
  // out), then the event under the message key. Field names are plain words, written by pino unescaped.
  const infoPerRequest = (event: string, fields: LogFields): void => {
    if (!infoEnabled) return;
    const json = JSON.stringify(scrubFields(fields));
    const own = json.length > 2 ? `,${json.slice(1, -1)}` : '';
    sink.write(`{"level":"info"${timeField()},${BASE_JSON}${own},"event":${JSON.stringify(event)}}\n`);
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    fatal: write('fatal'),
    infoPerRequest,
    flush: () => {
      if (writer) writer.flushWaiting(EXIT_FLUSH_WAIT_MS);
      else base.flush();
    },
    droppedLines: () => writer?.droppedLines() ?? 0,
  };
}

/** Whether each field name seen so far must be redacted (names are few and fixed; the test runs once per name). */
const forbiddenByName = new Map<string, boolean>();

function isForbidden(name: string): boolean {
  let forbidden = forbiddenByName.get(name);
  if (forbidden === undefined) {
    forbidden = FORBIDDEN_FIELD.test(name);
    if (forbiddenByName.size < 1000) forbiddenByName.set(name, forbidden);
  }
  return forbidden;
}

function isPrintable(value: unknown): boolean {
  const type = typeof value;
  return value === null || type === 'string' || type === 'number' || type === 'boolean' || type === 'undefined';
}

/**
 * The fields as they may be written: the same object when nothing needs replacing (the usual case), else a scrubbed
 * copy.
 */
function scrubFields(fields: Record<string, unknown>): Record<string, unknown> {
  let clean = true;
  for (const name in fields) {
    if (isForbidden(name) || !isPrintable(fields[name])) {
      clean = false;
      break;
    }
  }
  if (clean) return fields;
  const scrubbed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (isForbidden(name)) scrubbed[name] = REDACTED;
    else if (isPrintable(value)) scrubbed[name] = value;
    else scrubbed[name] = `[${typeof value}]`;
  }
  return scrubbed;
}

/** How long the last flush waits for a full stdout to take the last lines. */
const EXIT_FLUSH_WAIT_MS = 1000;

/**
 * stdout in 16 KiB batches, written synchronously (a write per line costs more CPU than the lines
 * themselves); a line below a full batch waits at most 250 ms, on a timer that runs only while lines
 * wait, and the rest goes out at shutdown. A pipe or socket stdout is non-blocking (main.ts): a full
 * one refuses the write (EAGAIN) and the writer keeps the lines, instead of the write blocking the process.
 */
function batchedStdout(): BatchedLineWriter {
  return createBatchedLineWriter({ fd: 1, flushAfterMs: 250 });
}

/** Describes an error for a log line without its stack or any attached data. */
export function describeError(error: unknown): { errorCode: string; errorMessage: string } {
  const e = error as { code?: unknown; message?: unknown };
  return {
    errorCode: typeof e?.code === 'string' ? e.code : error instanceof Error ? error.name : 'unknown',
    errorMessage: typeof e?.message === 'string' ? e.message.slice(0, 200) : String(error).slice(0, 200),
  };
}
