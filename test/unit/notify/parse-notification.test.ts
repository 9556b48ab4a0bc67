// The event validator published as `sfd-sidecar/notifications`: the envelope, every data rule of
// SYNC_RECORDING_RESULT_EVENT v1.0, SYNC_STREAM_STATUS_EVENT, the older variant, unknown types.
import test from 'ava';
import { parseNotification } from 'sfd-sidecar/notifications';
import { recordingEvent, streamStatusEvent } from '../../../src/notify/build-events.js';

const now = Date.UTC(2026, 10, 22, 3, 0, 0);
const started = (overrides: Record<string, unknown> = {}) => ({
  ...recordingEvent({ status: 'started', recordingId: 'r1', streamId: 's1', startedMs: now - 60_000, nowMs: now }),
  ...overrides,
});
const withData = (status: 'started' | 'ended' | 'error', data: Record<string, unknown>) => {
  const event = recordingEvent({ status, recordingId: 'r1', streamId: 's1', startedMs: now - 60_000, nowMs: now });
  return { ...event, data: { ...event.data, ...data } };
};
const problemsOf = (value: unknown): readonly string[] => {
  const parsed = parseNotification(value);
  return parsed.ok ? [] : parsed.problems;
};

test('well-formed started, ended and error events are valid and typed', (t) => {
  for (const status of ['started', 'ended', 'error'] as const) {
    const parsed = parseNotification(
      recordingEvent({ status, recordingId: 'r1', streamId: 's1', startedMs: now - 60_000, nowMs: now }),
    );
    if (!parsed.ok) return t.fail(parsed.problems.join('; '));
    const event = parsed.notification;
    if (event.type !== 'SYNC_RECORDING_RESULT_EVENT') return t.fail('not typed as a recording event');
    t.is(event.data.status, status);
  }
});

for (const [title, value, expected] of [
  [
    'started must not carry ended',
    withData('started', { ended: '2026-11-22T03:00:00Z' }),
    'data.ended: must be absent while status is started (rule 1)',
  ],
  [
    'started must not carry accessUrl',
    withData('started', { accessUrl: 'https://x.example/r.mp4' }),
    'data.accessUrl: is given only when status is ended (rule 1)',
  ],
  [
    'ended requires accessUrl',
    withData('ended', { accessUrl: undefined }),
    'data.accessUrl: is required when status is ended (rule 2)',
  ],
  [
    'ended requires ended',
    withData('ended', { ended: undefined }),
    'data.ended: is required when status is ended (rule 2)',
  ],
  [
    'error requires errorMessage',
    withData('error', { errorMessage: undefined }),
    'data.errorMessage: is required when status is error (rule 3)',
  ],
  [
    'error must not carry accessUrl',
    withData('error', { accessUrl: 'https://x.example/r.mp4' }),
    'data.accessUrl: must be absent when status is error (rule 3)',
  ],
  [
    'ended must not precede started',
    withData('ended', { ended: '2020-01-01T00:00:00Z' }),
    'data.ended: must not be earlier than data.started',
  ],
] as const) {
  test(`rule: ${title}`, (t) => {
    t.deepEqual(problemsOf(value), [expected]);
  });
}

test('times must be ISO 8601 in UTC, and the status one of the three', (t) => {
  t.regex(
    problemsOf(withData('started', { started: '2026-11-22T11:00:00+08:00' })).join(),
    /data\.started: must be an ISO 8601 time in UTC/,
  );
  t.regex(problemsOf(withData('started', { status: 'finished' })).join(), /data\.status/);
  t.regex(problemsOf(withData('started', { recordingId: undefined })).join(), /data\.recordingId/);
});

test('the envelope: id, type, version, timestamp in epoch milliseconds and a data object', (t) => {
  const problems = problemsOf({
    type: 'SYNC_RECORDING_RESULT_EVENT',
    version: 'v1.0',
    timestamp: '2026-11-22',
    data: [],
  });
  t.true(problems.some((p) => p.startsWith('id:')));
  t.true(problems.some((p) => p.startsWith('timestamp:')));
  t.true(problems.some((p) => p.startsWith('data:')));
  t.deepEqual(problemsOf(started({ timestamp: 1.5 })), ['timestamp: must be a whole number of epoch milliseconds']);
});

test('the older published variant is reported as such, not crashed on', (t) => {
  const legacy = {
    ...started(),
    data: { recording: 'r1', streamId: 's1', started: '2026-11-22T03:00:00Z', status: 'Ended' },
  };
  t.deepEqual(problemsOf(legacy), [
    'data: this is the older published variant of the recording event (field "recording", status ' +
      'Ended/Error/Warning); v1.0 requires recordingId and status started, ended or error',
  ]);
});

test('SYNC_STREAM_STATUS_EVENT is validated by its documented fields', (t) => {
  t.true(parseNotification(streamStatusEvent({ streamId: 's1', status: 'started', nowMs: now })).ok);
  const bad = streamStatusEvent({ streamId: 's1', status: 'started', nowMs: now });
  t.regex(
    problemsOf({ ...bad, data: { ...bad.data, timestamp: '2026-11-22T03:00:00Z' } }).join(),
    /data\.timestamp: must be yyyyMMdd'T'HHmmss'Z'/,
  );
});

test('unknown types and versions are accepted as they are, marked unknown', (t) => {
  const other = parseNotification({
    id: 'x1',
    type: 'SYNC_SOMETHING_NEW',
    version: 'v9',
    timestamp: now,
    data: { a: 1 },
  });
  t.true(other.ok && 'unknown' in other.notification);
  const newer = parseNotification({ ...started(), version: 'v2.0', data: { anything: true } });
  t.true(newer.ok && 'unknown' in newer.notification);
});
