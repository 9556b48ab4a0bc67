// Log lines: flat fields written as given, secret-sounding field names redacted, objects never printed.
import test from 'ava';
import fc from 'fast-check';
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

/** Every line a logger writes, as written, with a clock that stands still. */
function rawCapture(level: 'info' | 'warn' = 'info'): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const logger = createLogger({
    level,
    now: () => 1_795_000_000_123,
    destination: { write: (l: string) => lines.push(l) },
  });
  return { lines, logger };
}

// Values as a request line holds them: text from HTTP heads and the key store (Latin-1, control
// characters, quotes and backslashes included), numbers of any kind, flags, null and absent fields.
const latin1Text = fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((code) => String.fromCharCode(code)) });
const fieldValue = fc.oneof(
  latin1Text,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
// Field names are plain words (pino writes a name as it is); some of them name a secret.
const fieldName = fc.oneof(
  fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,11}$/),
  fc.constantFrom('accessKeySecret', 'token'),
);

test('the per-request line is byte for byte the line pino writes for the same event and fields', (t) => {
  fc.assert(
    fc.property(fc.dictionary(fieldName, fieldValue, { maxKeys: 16 }), latin1Text, (fields, event) => {
      const viaPino = rawCapture();
      const perRequest = rawCapture();
      viaPino.logger.info(event, fields);
      perRequest.logger.infoPerRequest(event, fields);
      t.deepEqual(perRequest.lines, viaPino.lines);
    }),
    { numRuns: 500 },
  );
});

test('the per-request line is not written below its level, and redacts as every line does', (t) => {
  const quiet = rawCapture('warn');
  quiet.logger.infoPerRequest('request', { method: 'GET' });
  t.deepEqual(quiet.lines, []);
  const { lines, logger } = rawCapture();
  logger.infoPerRequest('request', { status: 200, signature: 'abc', key: { secret: 'hunter2' } as unknown as string });
  t.like(JSON.parse(lines[0]!), { level: 'info', event: 'request', status: 200, signature: REDACTED, key: '[object]' });
  t.false(lines[0]!.includes('hunter2'));
});
