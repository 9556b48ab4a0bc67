// An event that fails the specification: refused with every problem listed, and kept in the
// dead-letter file first, so that an event the application never saw can still be read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SIDECAR_ERRORS } from '../errors.js';
import type { Logger } from '../observability/logger.js';
import type { NotifyObserver } from '../observability/notify-observer.js';
import { errorAnswer, newTraceId, sendErrorAnswer } from '../http/error-answer.js';
import type { DeadLetterWriter } from './dead-letter.js';

export interface InvalidNotificationDeps {
  readonly deadLetter: DeadLetterWriter | null;
  readonly logger: Logger;
  readonly observer: NotifyObserver;
  readonly now: () => number;
}

export interface InvalidNotification {
  readonly incoming: IncomingMessage;
  readonly body: Buffer;
  readonly id: string | null;
  readonly problems: readonly string[];
}

export async function answerInvalidNotification(
  deps: InvalidNotificationDeps,
  outgoing: ServerResponse,
  invalid: InvalidNotification,
): Promise<void> {
  const { id, problems } = invalid;
  deps.observer.notification('none', 'none', 'invalid');
  // One trace id for the answer and both of its log lines (the refusal, and a failure to keep it).
  const sidecarTraceId = newTraceId();
  deps.logger.warn('notification invalid', { notificationId: id, problems: problems.join('; '), sidecarTraceId });
  const kept = deps.deadLetter ? await keepInDeadLetter(deps, deps.deadLetter, invalid, sidecarTraceId) : true;
  const spec = kept ? SIDECAR_ERRORS.NotificationInvalid : SIDECAR_ERRORS.NotificationNotKept;
  sendErrorAnswer(outgoing, errorAnswer(spec, { traceId: sidecarTraceId, fields: { problems } }));
}

/** Whether the event is now in the dead-letter file. */
async function keepInDeadLetter(
  deps: InvalidNotificationDeps,
  deadLetter: DeadLetterWriter,
  { incoming, body, id, problems }: InvalidNotification,
  sidecarTraceId: string,
): Promise<boolean> {
  try {
    await deadLetter({
      receivedAt: new Date(deps.now()).toISOString(),
      id,
      problems,
      headers: headerRecord(incoming),
      body: body.toString('utf8'),
    });
    deps.observer.deadLetter('kept');
    return true;
  } catch (error) {
    // The service publishes no retry policy, so after a 400 the file is the event's only copy: a 503
    // asks for it again, by when the disk or the cap may have room. Nothing is lost.
    deps.observer.deadLetter('not_kept');
    deps.logger.error(
      'could not keep the invalid notification in the dead-letter file; answered 503 so that the service ' +
        'may send it again',
      {
        notificationId: id,
        errorCode: (error as NodeJS.ErrnoException).code ?? 'unknown',
        sidecarTraceId,
      },
    );
    return false;
  }
}

function headerRecord(incoming: IncomingMessage): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2)
    record[incoming.rawHeaders[i]!] = incoming.rawHeaders[i + 1]!;
  return record;
}
