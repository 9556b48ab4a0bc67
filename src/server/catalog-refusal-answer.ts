// The sidecar's answer to a request refused before any handler saw it (parser-refusals.ts: Node's
// parser refused it, or it is a CONNECT): the catalog error in the upstream's shape with a trace id of
// the sidecar's own, and a log line that carries the same trace id and Node's code, never a byte of the
// request.
import { SIDECAR_ERRORS, type SidecarErrorSpec } from '../errors.js';
import type { Logger } from '../observability/logger.js';
import { errorAnswer } from '../http/error-answer.js';
import type { ParserRefusal, ParserRefusalKind, RefusalAnswer } from './parser-refusals.js';

const SPEC_OF: Readonly<Record<ParserRefusalKind, SidecarErrorSpec>> = {
  malformed: SIDECAR_ERRORS.MalformedRequest,
  headersTooLarge: SIDECAR_ERRORS.HeadersTooLarge,
  timeout: SIDECAR_ERRORS.RequestTimeout,
  connect: SIDECAR_ERRORS.MethodNotAllowed,
  version: SIDECAR_ERRORS.HttpVersionNotSupported,
};

export interface RefusalReporting {
  readonly logger: Logger;
  /** Which listener refused it (signing, admin, notifications), for the log line. */
  readonly listener: string;
  /** Counts the refusal by its Sidecar.* code (the signing listener's sfd_sidecar_errors_total). */
  readonly count?: (code: string) => void;
  /** The listener's methods, for the `Allow` header a 405 must carry (RFC 9110 §15.5.6), sent with a CONNECT's. */
  readonly allow: string;
}

export function catalogRefusalAnswer({
  logger,
  listener,
  count,
  allow,
}: RefusalReporting): (refusal: ParserRefusal) => RefusalAnswer {
  return ({ kind, parserCode }) => {
    const spec = SPEC_OF[kind];
    const answer = errorAnswer(spec, kind === 'connect' ? { headers: { Allow: allow } } : {});
    const sidecarTraceId = answer.traceId;
    count?.(spec.code);
    if (kind === 'connect')
      logger.warn('CONNECT refused: no listener opens tunnels', {
        listener,
        status: spec.status,
        errorCode: spec.code,
        sidecarTraceId,
      });
    else
      logger.warn('request refused by the HTTP parser', {
        listener,
        status: spec.status,
        errorCode: spec.code,
        parserCode,
        sidecarTraceId,
      });
    return answer;
  };
}
