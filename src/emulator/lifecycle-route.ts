// The emulator playing the service's side: POST /_emulator/notifications/recording with
// {"callbackUrl": "...", "outcome": "ended" | "error", "recordingId"?, "streamId"?} sends a recording's
// lifecycle to the callback, `started` and then `ended` or `error`, and answers what each send got back.
import type { Hono } from 'hono';
import { recordingEvent } from '../notify/build-events.js';
import { sendEvent } from '../notify/send-event.js';
import { replyError, replyJson, type EmulatorEnv } from './emulator-context.js';
import type { EmulatorState } from './emulator-state.js';
import { GATEWAY_ERRORS } from './gateway-errors.js';

export const LIFECYCLE_PATH = '/_emulator/notifications/recording';

export function addLifecycleRoute(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  app.post(LIFECYCLE_PATH, async (c) => {
    let request: { callbackUrl?: unknown; outcome?: unknown; recordingId?: unknown; streamId?: unknown };
    try {
      request = JSON.parse(c.get('body').toString('utf8')) as typeof request;
    } catch {
      return replyError(c, GATEWAY_ERRORS.badRequest);
    }
    const outcome = request.outcome ?? 'ended';
    if (
      typeof request.callbackUrl !== 'string' ||
      !/^https?:\/\//.test(request.callbackUrl) ||
      (outcome !== 'ended' && outcome !== 'error')
    ) {
      return replyError(c, GATEWAY_ERRORS.badRequest);
    }
    const startedMs = state.now();
    const ids = {
      recordingId: typeof request.recordingId === 'string' ? request.recordingId : `rec-${startedMs}`,
      streamId: typeof request.streamId === 'string' ? request.streamId : 'stream-emulator-1',
    };
    const sent = [];
    for (const status of ['started', outcome] as const) {
      const event = recordingEvent({
        ...ids,
        status,
        startedMs,
        nowMs: status === 'started' ? startedMs : startedMs + 1000,
      });
      const answer = await sendEvent(request.callbackUrl, event);
      sent.push({
        id: event.id,
        status,
        callbackStatus: answer.status,
        ...(answer.error ? { error: answer.error } : {}),
      });
    }
    return replyJson(c, { sent });
  });
}
