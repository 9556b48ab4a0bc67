// Log lines: flat fields written as given, secret-sounding field names redacted, objects never printed.
import test from 'ava';
import { createLogger, REDACTED } from '../../../src/observability/logger.js';

function capture(): { lines: Record<string, unknown>[]; logger: ReturnType<typeof createLogger> } {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { lines, logger };
}

test('plain fields are written as given and undefined ones are left out', (t) => {
  const { lines, logger } = capture();
  const fields = { method: 'GET', status: 200, completed: true, profile: undefined, traceparent: null };
  logger.info('request', fields);
  t.like(lines[0], { event: 'request', level: 'info', method: 'GET', status: 200, completed: true, traceparent: null });
  t.false('profile' in lines[0]!);
  t.deepEqual(
    fields,
    { method: 'GET', status: 200, completed: true, profile: undefined, traceparent: null },
    'the caller’s object is not changed',
  );
});

test('fields named like a secret are redacted, whatever their case, every time they appear', (t) => {
  const { lines, logger } = capture();
  for (let i = 0; i < 3; i += 1) {
    logger.warn('oops', {
      accessKeySecret: 'hunter2',
      Authorization: 'HMAC-SHA256 AK:abc',
      signature: 'abc',
      refreshToken: 't',
      password: 'p',
      accessKeyId: 'AK1',
    });
  }
  t.is(lines.length, 3);
  for (const line of lines) {
    t.like(line, {
      accessKeySecret: REDACTED,
      Authorization: REDACTED,
      signature: REDACTED,
      refreshToken: REDACTED,
      password: REDACTED,
      accessKeyId: 'AK1',
    });
    t.false(JSON.stringify(line).includes('hunter2'));
  }
});

test('an object passed as a field is named by its type, never printed', (t) => {
  const { lines, logger } = capture();
  logger.error('bad call', { key: { secret: 'hunter2' } as unknown as string, count: 1 });
  t.like(lines[0], { key: '[object]', count: 1 });
  t.false(JSON.stringify(lines[0]).includes('hunter2'));
});
