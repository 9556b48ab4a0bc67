// One proxied request from arrival to its log line. The steps, in the order a request takes them:
// admit (capacity, profile, target), read the body once under the limits, sign with the profile's current
// key and forward, then relay the gateway's answer as it streams. When the gateway refuses the key and
// the profile holds another key valid now (a rotation's overlap), it re-signs once with that key; when
// that key is refused too, the caller gets the first refusal, whose cause is the one to fix.
import type { Profile } from '../keys/key-store.js';
import { operationOf } from '../operations/named-operations.js';
import type { OperationLimit } from '../operations/operation-limit.js';
import type { OperationGate } from './operation-gate.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SidecarError, SIDECAR_ERRORS, type SidecarErrorSpec } from '../errors.js';
import type { ProfileResolver, ResolvedProfile } from '../keys/profile-resolver.js';
import { alternateKey, currentKey } from '../keys/select-key.js';
import { describeError } from '../observability/logger.js';
import type { RequestLabels } from '../observability/proxy-observer.js';
import type { AccessKey } from '../signing/types.js';
import { KEY_REFUSAL_STATUSES, keyRefusal } from './key-refusals.js';
import { errorAnswer, newTraceId, sendErrorAnswer } from '../http/error-answer.js';
import { errorCodeOf, readPrefix, type BodyPrefix } from '../outbound/read-prefix.js';
import { declaresNoBody, declaresNoFraming, NO_BODY, readBody, type BodyHold } from '../http/read-body.js';
import { queryReplacesBody } from '../signing/signing-target.js';
import type { ConnectRetryPolicy } from './connect-retry.js';
import type { Limits } from '../config/limits-config.js';
import type { RequestLogMode } from '../config/settings.js';
import type { Logger } from '../observability/logger.js';
import type { ProxyObserver } from '../observability/proxy-observer.js';
import type { BodyBudget } from '../http/body-budget.js';
import type { ForwarderPool } from './forwarder-pool.js';
import type { RequestSigner } from './request-signer.js';
import {
  prepareOutgoingHeaders,
  responseHeadersForCaller,
  sendableReason,
  upstreamHeaderLines,
} from './outgoing-headers.js';
import type { PreparedHeaders } from './outgoing-headers.js';
import { newRecord, type RequestRecord } from './request-record.js';
import { resolveRequestTarget, type AcceptedTarget } from './request-target.js';
import type { MismatchLogger } from './signing-mismatch-log.js';
import type { ResignLogger } from './resign-log.js';
import { FIRST_ATTEMPT, keyRefused, settle, type Attempt, type HeldRefusal, type ResignState } from './resign-state.js';
import { streamToCaller } from './stream-to-caller.js';
import { tapErrorCode } from './tap-error-code.js';

export interface ProxyHandlerDeps {
  readonly resolveProfile: ProfileResolver;
  /** Lowercase name of SFD_PROFILE_HEADER, never forwarded; null when off. */
  readonly profileHeader: string | null;
  readonly maxBodyBytes: number;
  /** Request-body bytes held at once across requests (SFD_MAX_BUFFERED_BODY_BYTES). */
  readonly bodyBudget: BodyBudget;
  readonly sign: RequestSigner;
  readonly forwarders: ForwarderPool;
  readonly logger: Logger;
  readonly now: () => number;
  readonly observer: ProxyObserver;
  readonly limits: Pick<Limits, 'maxInflight' | 'upstreamRetries' | 'retryMethods' | 'clientMinBodyBytesPerSecond'>;
  /** Which requests get their log line (SFD_REQUEST_LOG); every one when omitted. */
  readonly requestLog?: RequestLogMode;
  /** The limits on the operations a profile signs, in the order they are judged; none when omitted. */
  readonly operationLimits?: (profile: Profile) => readonly (OperationLimit | null)[];
}

/** What every exchange shares: the handler's dependencies and the policies built from them once. */
export interface ExchangeContext extends ProxyHandlerDeps {
  readonly logMismatch: MismatchLogger;
  readonly logResign: ResignLogger;
  readonly gateOperation: OperationGate;
  readonly retryDelayMs: ConnectRetryPolicy;
  readonly logged: (record: RequestRecord) => boolean;
}

/** A request checked and read, ready to be signed: what every attempt at it sends. */
interface ReadyRequest {
  readonly resolved: ResolvedProfile;
  readonly target: AcceptedTarget;
  readonly body: Buffer;
  readonly prepared: PreparedHeaders;
  readonly upstreamPath: string;
  readonly contentLength: number | null;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const ERROR_PREFIX_LIMIT = 16 * 1024;

export class ProxyExchange {
  private readonly started = performance.now();
  private readonly method: string;
  private readonly rawUrl: string;
  private readonly record: RequestRecord;
  private labelsCache: RequestLabels | null = null;
  /** Body bytes this request holds in the shared budget, given back when it ends. */
  private heldBodyBytes = 0;
  /** Where the request stands on the re-sign path (resign-state.ts). */
  private resignState: ResignState = FIRST_ATTEMPT;

  constructor(
    private readonly context: ExchangeContext,
    private readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
  ) {
    this.method = incoming.method ?? '';
    this.rawUrl = incoming.url ?? '';
    const queryAt = this.rawUrl.indexOf('?');
    const path = queryAt === -1 ? this.rawUrl : this.rawUrl.slice(0, queryAt);
    const traceparent = incoming.headers.traceparent;
    this.record = newRecord(this.method, path, typeof traceparent === 'string' ? traceparent : undefined);
  }

  start(): void {
    this.context.observer.requestStarted();
    this.outgoing.on('close', () => this.finish());
    try {
      this.admit();
    } catch (error) {
      this.failWith(error);
    }
  }

  /** The metric labels; the profile is part of them once it is known. */
  private labels(): RequestLabels {
    const profile = this.record.profile ?? 'none';
    if (this.labelsCache?.profile !== profile)
      this.labelsCache = { profile, operation: this.record.operation, method: this.method };
    return this.labelsCache;
  }

  /** The caller's connection closed: give back the body budget, count the request, write its log line. */
  private finish(): void {
    const { record, outgoing, context } = this;
    if (this.heldBodyBytes > 0) context.bodyBudget.give(this.heldBodyBytes);
    this.settleResign('ended', null, null); // a re-signed attempt still out never answered
    const seconds = (performance.now() - this.started) / 1000;
    const status = outgoing.headersSent ? outgoing.statusCode : 0;
    // The trace id the caller's answer carried: the sidecar's own when it answered itself.
    context.observer.requestFinished(this.labels(), status, seconds, record.sidecarTraceId ?? record.upstreamTraceId);
    record.status = status;
    record.completed = outgoing.writableFinished;
    record.durationMs = Math.round(seconds * 1e6) / 1000;
    if (context.logged(record)) context.logger.infoPerRequest('request', record);
  }

  /** Answers with one of the sidecar's own errors; a cause is logged, never sent. */
  private fail(spec: SidecarErrorSpec, cause?: unknown, reason?: string): void {
    const { record, context } = this;
    const traceId = newTraceId();
    record.sidecarTraceId = traceId;
    record.errorCode = spec.code;
    context.observer.sidecarError(spec.code);
    if (cause !== undefined)
      context.logger.warn('sidecar error', { code: spec.code, sidecarTraceId: traceId, ...describeError(cause) });
    // A body left unread on the connection would be taken for the next request: the connection closes.
    const unreadBody = !this.incoming.complete && !declaresNoBody(this.incoming);
    const answer = errorAnswer(spec, {
      traceId,
      headers: unreadBody ? { Connection: 'close' } : {},
      ...(reason ? { fields: { reason } } : {}),
    });
    sendErrorAnswer(this.outgoing, answer);
  }

  private readonly failWith = (error: unknown): void => {
    if (error instanceof SidecarError) this.fail(error.spec, error.cause);
    else this.fail(SIDECAR_ERRORS.Internal, error);
  };

  /** Refuses what the sidecar cannot take or sign before any byte of the body is read. */
  private admit(): void {
    const { context, record } = this;
    if (context.observer.requestsInFlight() > context.limits.maxInflight) return this.fail(SIDECAR_ERRORS.Overloaded);
    const resolution = context.resolveProfile(this.incoming.headers);
    if (!resolution.ok) {
      if (resolution.error === 'ProfileForbidden') record.refusedProfile = resolution.profileName;
      else if (resolution.profileName !== undefined) record.profile = resolution.profileName;
      return this.fail(SIDECAR_ERRORS[resolution.error], undefined, resolution.cause);
    }
    const { resolved } = resolution;
    record.profile = resolved.profile.name;
    const target = resolveRequestTarget(this.rawUrl, resolved.upstream);
    if (!target.ok) return this.fail(SIDECAR_ERRORS[target.error]);
    if (!this.passesOperationGate(resolved, target)) return;
    // A bodiless request (most GETs) goes on at once; no promise, no extra turn of the event loop.
    if (declaresNoBody(this.incoming)) return this.send(resolved, target, NO_BODY);
    // A body the signature would not cover is never forwarded: anyone between here and the gateway could
    // change it. Refused from its length when it has one, else once read (a chunked body).
    const bodyUnsigned = queryReplacesBody(this.method, target.rawQuery, resolved.signing.queryPlacement);
    if (bodyUnsigned && Number(this.incoming.headers['content-length'] ?? 0) > 0)
      return this.fail(SIDECAR_ERRORS.UnsignedBody);
    this.readBody().then(
      (body) =>
        bodyUnsigned && body.length > 0 ? this.fail(SIDECAR_ERRORS.UnsignedBody) : this.send(resolved, target, body),
      this.failWith,
    );
  }

  /**
   * Judges the call against its profile's operations, on the path as forwarded and signed less the
   * upstream's prefix; that path, not the raw target, is what the log line and the metrics name.
   */
  private passesOperationGate(resolved: ResolvedProfile, target: AcceptedTarget): boolean {
    const { context, record } = this;
    const path = target.path.slice(resolved.upstream.pathPrefix.length);
    record.path = path;
    record.operation = operationOf(this.method, path);
    const limits = context.operationLimits?.(resolved.profile) ?? [];
    const gate = context.gateOperation({
      profile: resolved.profile.name,
      operation: record.operation,
      method: this.method,
      path,
      headers: this.incoming.headers,
      limits,
    });
    if (gate.verdict === 'allowed') return true;
    context.observer.operationRefused(this.labels(), gate.verdict);
    if (gate.verdict !== 'enforced') return true;
    this.fail(SIDECAR_ERRORS.OperationForbidden, undefined, gate.reason);
    return false;
  }

  /** Reads the whole body under the request's limit, the shared budget and the minimum rate. */
  private readBody(): Promise<Buffer> {
    const { context, outgoing } = this;
    const hold: BodyHold = {
      fits: (bytes) => context.bodyBudget.fits(bytes),
      take: (bytes) => {
        if (outgoing.closed) return true; // nothing more is held once the request is over: its bytes go with it
        if (!context.bodyBudget.take(bytes)) return false;
        this.heldBodyBytes += bytes;
        return true;
      },
    };
    const limits = {
      maxBytes: context.maxBodyBytes,
      hold,
      minBytesPerSecond: context.limits.clientMinBodyBytesPerSecond,
    };
    return readBody(this.incoming, outgoing, limits);
  }

  /** Prepares what every attempt sends, then makes the first attempt with the profile's current key. */
  private send(resolved: ResolvedProfile, target: AcceptedTarget, body: Buffer): void {
    const key = currentKey(resolved.profile, this.context.now());
    if (!key)
      return this.fail(SIDECAR_ERRORS.NotReady, undefined, `profile "${resolved.profile.name}" has no key valid now`);
    // Framed as the caller framed it (a body always came with a length or chunking), and always for the
    // methods that carry content: some gateways answer 411 to a POST without a length.
    const framed = METHODS_WITH_BODY.has(this.method) || !declaresNoFraming(this.incoming);
    this.attempt(
      {
        resolved,
        target,
        body,
        prepared: prepareOutgoingHeaders(this.incoming.rawHeaders, this.context.profileHeader),
        upstreamPath: target.rawQuery === null ? target.path : `${target.path}?${target.rawQuery}`,
        contentLength: framed ? body.length : null,
      },
      key,
      0,
    );
  }

  /** Signs the request with `key` and sends it to the gateway. */
  private attempt(ready: ReadyRequest, key: AccessKey, connectRetries: number): void {
    if (this.outgoing.destroyed) return; // the caller went away: nothing to send upstream
    const { context, method } = this;
    const { resolved, target, prepared } = ready;
    const signed = context.sign(
      {
        method,
        path: target.path,
        rawQuery: target.rawQuery,
        extraSfdHeaders: prepared.extraSfdHeaders,
        body: ready.body,
      },
      { key, host: resolved.upstream.host, options: resolved.signing },
    );
    this.record.accessKeyId = key.accessKeyId;
    const current: Attempt = { key, signed, connectRetries };
    // No signed name can clash with the caller's: theirs were dropped.
    const headers = upstreamHeaderLines(prepared.lines, signed.headers, ready.contentLength);
    const sentAt = performance.now();
    context.forwarders.get(resolved.upstream).forward(
      this.incoming,
      this.outgoing,
      { method, path: ready.upstreamPath, headers, body: ready.body },
      {
        onResponse: (response) => {
          context.observer.upstreamAnswered(
            this.labels(),
            response.statusCode ?? 0,
            (performance.now() - sentAt) / 1000,
            response.headers.date,
          );
          this.answered(ready, current, response);
        },
        onError: (error, reachedUpstream) => this.unreached(ready, current, error, reachedUpstream),
      },
    );
  }

  /** The gateway answered the first attempt: relay it, unless it refused a key the profile can replace. */
  private answered(ready: ReadyRequest, current: Attempt, response: IncomingMessage): void {
    const state = this.resignState;
    if (state.name === 're-signing') return this.answeredResigned(ready, current, state.refused, response);
    const alternate = KEY_REFUSAL_STATUSES.has(response.statusCode ?? 0)
      ? alternateKey(ready.resolved.profile, this.context.now(), current.key.accessKeyId)
      : null;
    if (!alternate) {
      this.settleResign('answer-chosen', null, null);
      return this.relay(ready, current, response);
    }
    this.readRefusal(response, (prefix, code) => {
      if (code !== null) return this.resign(ready, { attempt: current, response, prefix, code }, alternate);
      this.settleResign('answer-chosen', null, null);
      this.relay(ready, current, response, prefix);
    });
  }

  /**
   * The gateway answered the re-signed attempt. When it refused this key too, the caller gets the first
   * refusal as it came: that one names the cause to fix (a signature form, the current key); the second
   * only says that the other key did not help either.
   */
  private answeredResigned(
    ready: ReadyRequest,
    current: Attempt,
    refused: HeldRefusal,
    response: IncomingMessage,
  ): void {
    const status = response.statusCode ?? 0;
    if (!KEY_REFUSAL_STATUSES.has(status)) {
      this.settleResign('answer-chosen', status, null);
      return this.relay(ready, current, response);
    }
    this.readRefusal(response, (prefix, code) => {
      this.settleResign('answer-chosen', status, code);
      if (code === null) return this.relay(ready, current, response, prefix);
      this.context.observer.upstreamError(this.labels(), status, code);
      this.relay(ready, refused.attempt, refused.response, refused.prefix, true);
    });
  }

  /**
   * Reads the start of an answer whose status may refuse the key, then calls `then` with it and the code
   * of the key refusal it is (null when it is none), unless the caller went away or the answer was cut off.
   */
  private readRefusal(response: IncomingMessage, then: (prefix: BodyPrefix, code: string | null) => void): void {
    readPrefix(response, ERROR_PREFIX_LIMIT).then((prefix) => {
      if (this.outgoing.destroyed) return;
      // Cut off before its end: as when streaming, the caller's connection is cut, never left waiting.
      if (prefix.cutOff) return void this.outgoing.destroy();
      const code = prefix.complete ? errorCodeOf(prefix.bytes) : null;
      then(prefix, keyRefusal(response.statusCode ?? 0, code) ? code : null);
    }, this.failWith);
  }

  /** Sends the request once more, signed with another key of the profile valid now. */
  private resign(ready: ReadyRequest, refused: HeldRefusal, alternate: AccessKey): void {
    const { context, record } = this;
    const profile = ready.resolved.profile.name;
    record.resigned = true;
    context.observer.upstreamError(this.labels(), refused.response.statusCode ?? 0, refused.code);
    context.observer.resigned(profile);
    this.resignState = keyRefused(this.resignState, refused, {
      profile,
      refusedAccessKeyId: refused.attempt.key.accessKeyId,
      retryAccessKeyId: alternate.accessKeyId,
      upstreamCode: refused.code,
    });
    this.attempt(ready, alternate, 0);
  }

  /**
   * Leaves the re-sign path by `transition`; a re-sign it ends is logged, once, with the re-signed
   * attempt's status and, when it refused the key too, its code.
   */
  private settleResign(
    transition: 'answer-chosen' | 'ended',
    retryStatus: number | null,
    retryUpstreamCode: string | null,
  ): void {
    const { state, line } = settle(this.resignState, transition, { retryStatus, retryUpstreamCode });
    this.resignState = state;
    if (line) this.context.logResign(line);
  }

  /** No answer came: send again when no byte reached the gateway and the policy allows, else a 502/504. */
  private unreached(ready: ReadyRequest, current: Attempt, error: SidecarError, reachedUpstream: boolean): void {
    if (this.outgoing.destroyed) return;
    const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    const delayMs = this.context.retryDelayMs({ code, reachedUpstream }, this.method, current.connectRetries);
    if (delayMs === null) return this.fail(error.spec, error.cause ?? error);
    const retry = current.connectRetries + 1;
    this.context.logger.info('retrying after a connection failure', {
      attempt: retry,
      errorCode: code,
      delayMs: Math.round(delayMs),
    });
    setTimeout(() => {
      if (!this.outgoing.destroyed) this.attempt(ready, current.key, retry);
    }, delayMs);
  }

  /**
   * Streams the gateway's answer to `current` to the caller as it comes; error codes are counted as the
   * body passes, unless `counted` says this answer's code was counted when it was read.
   */
  private relay(
    ready: ReadyRequest,
    current: Attempt,
    response: IncomingMessage,
    prefix?: BodyPrefix,
    counted = false,
  ): void {
    const { outgoing, record, context } = this;
    const status = response.statusCode ?? 502;
    record.accessKeyId = current.key.accessKeyId;
    const onCode = (code: string | null): void => {
      if (!counted) context.observer.upstreamError(this.labels(), status, code);
      if (status === 401 && code === 'Signature.NotMatch') {
        context.logMismatch(this.method, current.signed, current.key.accessKeyId, ready.resolved.signing);
      }
    };
    const traceId = response.headers['x-sfd-trace-id'];
    if (typeof traceId === 'string') record.upstreamTraceId = traceId;
    const responseHeaders = responseHeadersForCaller(response.rawHeaders, status);
    if (ready.prepared.closeRequested) responseHeaders.push('Connection', 'close');
    const head = (): boolean => {
      try {
        outgoing.writeHead(status, sendableReason(response.statusMessage), responseHeaders);
        return true;
      } catch (error) {
        // An answer Node cannot pass on as it came (a status outside 100-999, a header it refuses) becomes
        // a 502, never an exception out of the socket's event. writeHead keeps what it took before it
        // threw; the 502 takes its own status phrase.
        response.destroy();
        outgoing.statusMessage = '';
        this.fail(SIDECAR_ERRORS.UpstreamUnreachable, error);
        return false;
      }
    };
    if (prefix) {
      if (!head()) return;
      if (status >= 400 && prefix.complete) onCode(errorCodeOf(prefix.bytes));
      if (prefix.complete) return void outgoing.end(prefix.bytes);
      outgoing.write(prefix.bytes);
    }
    streamToCaller(response, outgoing, {
      head: prefix ? () => true : head,
      // Nothing reached the caller yet: the sidecar's own answer, 504 for a stall, 502 for a close.
      failedBeforeHead: (error) =>
        this.fail(error instanceof SidecarError ? error.spec : SIDECAR_ERRORS.UpstreamClosed, error),
      cut: (error) => {
        record.errorCode = error instanceof SidecarError ? error.spec.code : SIDECAR_ERRORS.UpstreamClosed.code;
      },
    });
    if (status >= 400) tapErrorCode(response, prefix?.bytes ?? null, onCode);
  }
}
