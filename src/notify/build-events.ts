// Builds well-formed events as the service sends them: for `sfd-sidecar notify` and for the emulator
// playing the service's side of a recording's lifecycle.
import { randomUUID } from 'node:crypto';
import {
  RECORDING_RESULT_EVENT,
  STREAM_STATUS_EVENT,
  type RecordingResultEvent,
  type StreamStatusEvent,
} from './notifications.js';

export type RecordingStatus = 'started' | 'ended' | 'error';

export interface RecordingEventInput {
  readonly status: RecordingStatus;
  readonly recordingId: string;
  readonly streamId: string;
  /** Epoch ms when the recording started. */
  readonly startedMs: number;
  /** Epoch ms of this event (and of the end, for ended and error). */
  readonly nowMs: number;
  readonly accessUrl?: string;
  readonly errorMessage?: string;
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function recordingEvent(input: RecordingEventInput): RecordingResultEvent {
  const base = {
    recordingId: input.recordingId,
    streamId: input.streamId,
    started: iso(input.startedMs),
    status: input.status,
  };
  const data =
    input.status === 'started'
      ? base
      : input.status === 'ended'
        ? {
            ...base,
            ended: iso(input.nowMs),
            accessUrl:
              input.accessUrl ?? `https://vod.example.net/recordings/${encodeURIComponent(input.recordingId)}.mp4`,
          }
        : {
            ...base,
            ended: iso(input.nowMs),
            errorMessage: input.errorMessage ?? 'The recording stopped: the stream was interrupted.',
          };
  return { id: randomUUID(), type: RECORDING_RESULT_EVENT, version: 'v1.0', timestamp: input.nowMs, data };
}

export function streamStatusEvent(input: { streamId: string; status: string; nowMs: number }): StreamStatusEvent {
  const compact = new Date(input.nowMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  return {
    id: randomUUID(),
    type: STREAM_STATUS_EVENT,
    version: 'v1.0',
    timestamp: input.nowMs,
    data: {
      domain: 'live.example.net',
      app: 'live',
      stream: input.streamId,
      timestamp: compact,
      status: input.status,
      detail: `stream ${input.status}`,
    },
  };
}
