// A real logger whose lines are kept in memory, for tests that read what the sidecar logged.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/observability/logger.js';

export interface CapturedLogs {
  readonly logger: Logger;
  readonly text: () => string;
  readonly lines: () => Record<string, unknown>[];
}

export function captureLogs(): CapturedLogs {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger({ level: 'debug', destination });
  const text = (): string => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
