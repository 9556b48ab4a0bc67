// `sfd-sidecar notify --url URL --status started|ended|error [--recording-id ID] [--stream-id ID]
// [--type recording|stream-status]`: sends one well-formed event, as the service would.
import { randomUUID } from 'node:crypto';
import { ConfigError } from '../config/config-error.js';
import { recordingEvent, streamStatusEvent, type RecordingStatus } from '../notify/build-events.js';
import { sendEvent } from '../notify/send-event.js';
import type { CliIo } from '../command/cli-io.js';

type Options = Readonly<Record<string, string | boolean | string[] | undefined>>;

export async function notifyCommand(options: Options, io: CliIo): Promise<number> {
  const problems: string[] = [];
  const url = typeof options.url === 'string' ? options.url : '';
  if (!/^https?:\/\/\S+$/.test(url))
    problems.push('--url: required, the callback URL, e.g. http://127.0.0.1:8081/notifications');
  const type = typeof options.type === 'string' ? options.type : 'recording';
  if (type !== 'recording' && type !== 'stream-status') problems.push('--type: must be recording or stream-status');
  const status = typeof options.status === 'string' ? options.status : '';
  if (!['started', 'ended', 'error'].includes(status)) problems.push('--status: must be started, ended or error');
  if (problems.length > 0) throw new ConfigError(problems);

  const now = io.now();
  const streamId = typeof options['stream-id'] === 'string' ? options['stream-id'] : 'stream-demo-1';
  const event =
    type === 'recording'
      ? recordingEvent({
          status: status as RecordingStatus,
          recordingId: typeof options['recording-id'] === 'string' ? options['recording-id'] : `rec-${randomUUID()}`,
          streamId,
          startedMs: status === 'started' ? now : now - 60_000,
          nowMs: now,
        })
      : streamStatusEvent({ streamId, status, nowMs: now });
  io.stdout(`${JSON.stringify(event)}\n`);
  const outcome = await sendEvent(url, event);
  if (outcome.status === null) {
    io.stderr(`sfd-sidecar notify: no answer from ${url} (${outcome.error ?? 'unknown error'})\n`);
    return 1;
  }
  io.stderr(`${url} answered ${outcome.status}${outcome.body ? `: ${outcome.body}` : ''}\n`);
  return outcome.status >= 200 && outcome.status < 300 ? 0 : 1;
}
