// The notification events the service sends (docs/notifications.md), as TypeScript types and a
// validator. Packaged alone as `@sfd-sidecar/notifications` (packages/notifications), so that an
// application can consume the events the relay forwards type-safely with zod as its only dependency;
// it imports nothing else for that reason:
//
//   import { parseNotification } from '@sfd-sidecar/notifications';
//   const parsed = parseNotification(JSON.parse(body));
//   if (parsed.ok && parsed.notification.type === 'SYNC_RECORDING_RESULT_EVENT') { ... }
import { z } from 'zod';

export const RECORDING_RESULT_EVENT = 'SYNC_RECORDING_RESULT_EVENT';
export const STREAM_STATUS_EVENT = 'SYNC_STREAM_STATUS_EVENT';

/** ISO 8601 in UTC, e.g. 2026-11-22T03:38:44Z or 2026-11-22T03:38:44.123Z. */
const isoUtc = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/,
    'must be an ISO 8601 time in UTC, like 2026-11-22T03:38:44Z',
  )
  .refine((text) => !Number.isNaN(Date.parse(text)), 'must be a real instant');

const envelopeSchema = z.object({
  id: z.string().min(1, 'must be a non-empty string'),
  type: z.string().min(1, 'must be a non-empty string'),
  version: z.string().min(1, 'must be a non-empty string'),
  timestamp: z.number().int('must be a whole number of epoch milliseconds').nonnegative(),
  data: z.record(z.string(), z.unknown()),
});

const recordingDataSchema = z.object({
  recordingId: z.string().min(1),
  streamId: z.string().min(1),
  started: isoUtc,
  ended: isoUtc.optional(),
  status: z.enum(['started', 'ended', 'error']),
  errorMessage: z.string().optional(),
  accessUrl: z.url().optional(),
});

const streamStatusDataSchema = z.object({
  domain: z.string().min(1),
  app: z.string().min(1),
  stream: z.string().min(1),
  timestamp: z.string().regex(/^\d{8}T\d{6}Z$/, "must be yyyyMMdd'T'HHmmss'Z'"),
  status: z.string().min(1),
  detail: z.string().optional(),
});

export type RecordingData = z.infer<typeof recordingDataSchema>;
export type StreamStatusData = z.infer<typeof streamStatusDataSchema>;

interface Envelope<TType extends string, TData> {
  readonly id: string;
  readonly type: TType;
  readonly version: string;
  /** Epoch milliseconds. */
  readonly timestamp: number;
  readonly data: TData;
}

export type RecordingResultEvent = Envelope<typeof RECORDING_RESULT_EVENT, RecordingData>;
export type StreamStatusEvent = Envelope<typeof STREAM_STATUS_EVENT, StreamStatusData>;
/** A type or version this validator does not know: passed on as it came. */
export type UnknownEvent = Envelope<string, Record<string, unknown>> & { readonly unknown: true };
export type Notification = RecordingResultEvent | StreamStatusEvent | UnknownEvent;

export type ParsedNotification =
  | { readonly ok: true; readonly notification: Notification }
  | { readonly ok: false; readonly problems: readonly string[]; readonly id?: string };

/** Validates an event: the envelope, then the data rules of the known types and versions. */
export function parseNotification(value: unknown): ParsedNotification {
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) return { ok: false, problems: describe(envelope.error.issues), ...idOf(value) };
  const event = envelope.data;
  if (event.type === RECORDING_RESULT_EVENT && event.version === 'v1.0') {
    const problems = recordingProblems(event.data);
    return problems.length > 0
      ? { ok: false, problems, id: event.id }
      : { ok: true, notification: { ...event, type: RECORDING_RESULT_EVENT, data: event.data as RecordingData } };
  }
  if (event.type === STREAM_STATUS_EVENT) {
    const data = streamStatusDataSchema.safeParse(event.data);
    if (!data.success) return { ok: false, problems: describe(data.error.issues, 'data'), id: event.id };
    return { ok: true, notification: { ...event, type: STREAM_STATUS_EVENT, data: data.data } };
  }
  return { ok: true, notification: { ...event, unknown: true } };
}

/** The rules for the data of SYNC_RECORDING_RESULT_EVENT v1.0. */
function recordingProblems(data: Record<string, unknown>): string[] {
  const legacy = legacyVariantProblem(data);
  if (legacy) return [legacy];
  const parsed = recordingDataSchema.safeParse(data);
  if (!parsed.success) return describe(parsed.error.issues, 'data');
  const d = parsed.data;
  const problems: string[] = [];
  if (d.status === 'started') {
    if (d.ended !== undefined) problems.push('data.ended: must be absent while status is started (rule 1)');
    if (d.accessUrl !== undefined) problems.push('data.accessUrl: is given only when status is ended (rule 1)');
  } else if (d.status === 'ended') {
    if (d.ended === undefined) problems.push('data.ended: is required when status is ended (rule 2)');
    if (d.accessUrl === undefined) problems.push('data.accessUrl: is required when status is ended (rule 2)');
  } else {
    if (d.ended === undefined) problems.push('data.ended: is required when status is error (rule 3)');
    if (d.errorMessage === undefined) problems.push('data.errorMessage: is required when status is error (rule 3)');
    if (d.accessUrl !== undefined) problems.push('data.accessUrl: must be absent when status is error (rule 3)');
  }
  if (d.ended !== undefined && Date.parse(d.ended) < Date.parse(d.started))
    problems.push('data.ended: must not be earlier than data.started');
  return problems;
}

/** An older published variant uses `recording` and Ended/Error/Warning statuses. */
function legacyVariantProblem(data: Record<string, unknown>): string | null {
  const legacyStatus =
    typeof data.status === 'string' && ['Ended', 'Error', 'Warning', 'Warining'].includes(data.status);
  if (!('recording' in data) && !legacyStatus) return null;
  return (
    'data: this is the older published variant of the recording event (field "recording", status ' +
    'Ended/Error/Warning); v1.0 requires recordingId and status started, ended or error'
  );
}

function describe(issues: readonly z.core.$ZodIssue[], prefix = ''): string[] {
  return issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.');
    return `${path || '(event)'}: ${issue.message}`;
  });
}

function idOf(value: unknown): { id?: string } {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length <= 200 ? { id } : {};
}
