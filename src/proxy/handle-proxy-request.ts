// The signing handler (design, "The path of one request"): choose the profile, resolve the target,
// read the body once under the limit, drop and replace the caller's signature headers, sign with the
// profile's current key, forward, and stream the answer back. When the gateway refuses the key and the
// profile holds another key valid now (a rotation's overlap), it re-signs once with that key (issue #3).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SidecarError, SIDECAR_ERRORS, type SidecarErrorSpec } from '../errors.js';
import type { ProfileResolver, ResolvedProfile } from '../keys/profile-resolver.js';
import { alternateKey, currentKey } from '../keys/select-key.js';
import type { Limits } from '../config/limits-config.js';
import type { RequestLogMode } from '../config/settings.js';
import { describeError, type Logger } from '../observability/logger.js';
import type { ProxyObserver, RequestLabels } from '../observability/proxy-observer.js';
import type { SignResult } from '../signing/sign-request.js';
import type { AccessKey } from '../signing/types.js';
import type { BodyBudget } from './body-budget.js';
import { createConnectRetryPolicy } from './connect-retry.js';
import { createMismatchLogger } from './signing-mismatch-log.js';
import type { ForwarderPool } from './forwarder-pool.js';
import { prepareOutgoingHeaders, responseHeadersForCaller, sendableReason, upstreamHeaderLines } from './outgoing-headers.js';
import { errorCodeOf, readPrefix } from './read-prefix.js';
import { declaresNoBody, declaresNoFraming, NO_BODY, readBody, type BodyHold } from './read-body.js';
import { newRecord, requestLogFilter } from './request-record.js';
import type { RequestSigner } from './request-signer.js';
import { resolveRequestTarget, type AcceptedTarget } from './request-target.js';
import { newTraceId, sendSidecarError } from './send-error.js';
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
}

export type ProxyHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** Gateway answers that mean "this key is not accepted" (field-notes §3), worth one retry with another. */
const KEY_REFUSED = new Map([
  [401, new Set(['Signature.NotMatch', 'AccessCredential.Invalid'])],
  [400, new Set(['AccessKeyId.Invalid'])],
]);
const ERROR_PREFIX_LIMIT = 16 * 1024;

export function createProxyHandler(deps: ProxyHandlerDeps): ProxyHandler {
  const { logger, observer } = deps;
  const logMismatch = createMismatchLogger(logger, deps.now);
  const retryDelayMs = createConnectRetryPolicy({ retries: deps.limits.upstreamRetries, methods: deps.limits.retryMethods });
  const logged = requestLogFilter(deps.requestLog ?? 'all');
  let inflight = 0;

  return (incoming, outgoing) => {
    const started = performance.now();
    observer.requestStarted();
    inflight += 1;
    const rawUrl = incoming.url ?? '';
    const queryAt = rawUrl.indexOf('?');
    const method = incoming.method ?? '';
    const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const traceparent = incoming.headers.traceparent;
    const record = newRecord(method, path, typeof traceparent === 'string' ? traceparent : undefined);
    let boundLabels: RequestLabels | null = null;
    /** Body bytes this request holds in the budget, given back when it ends. */
    let heldBodyBytes = 0;
    /** The metric labels, built once the profile is known (it does not change afterwards). */
    const labels = (): RequestLabels => {
      if (boundLabels?.profile === (record.profile ?? 'none')) return boundLabels;
      boundLabels = { profile: record.profile ?? 'none', operation: record.operation, method };
      return boundLabels;
    };
    outgoing.on('close', () => {
      inflight -= 1;
      if (heldBodyBytes > 0) deps.bodyBudget.give(heldBodyBytes);
      const seconds = (performance.now() - started) / 1000;
      const status = outgoing.headersSent ? outgoing.statusCode : 0;
      observer.requestFinished(labels(), status, seconds);
      record.status = status;
      record.completed = outgoing.writableFinished;
      record.durationMs = Math.round(seconds * 1e6) / 1000;
      if (logged(record)) logger.info('request', record);
    });

    const fail = (spec: SidecarErrorSpec, cause?: unknown): void => {
      record.sidecarTraceId = newTraceId();
      record.errorCode = spec.code;
      observer.sidecarError(spec.code);
      if (cause !== undefined) logger.warn('sidecar error', { code: spec.code, sidecarTraceId: record.sidecarTraceId, ...describeError(cause) });
      sendSidecarError(outgoing, spec, record.sidecarTraceId, !incoming.complete && !declaresNoBody(incoming));
    };

    const onRunError = (error: unknown): void => {
      if (error instanceof SidecarError) fail(error.spec, error.cause);
      else fail(SIDECAR_ERRORS.Internal, error);
    };

    const run = (): void => {
      if (inflight > deps.limits.maxInflight) return fail(SIDECAR_ERRORS.Overloaded);
      const resolution = deps.resolveProfile(incoming.headers);
      if (!resolution.ok) {
        if (resolution.error === 'ProfileForbidden') record.refusedProfile = resolution.profileName;
        else if (resolution.profileName !== undefined) record.profile = resolution.profileName;
        return fail(SIDECAR_ERRORS[resolution.error]);
      }
      const { resolved } = resolution;
      record.profile = resolved.profile.name;
      const target = resolveRequestTarget(rawUrl, resolved.upstream);
      if (!target.ok) return fail(SIDECAR_ERRORS[target.error]);
      // A bodiless request (most GETs) goes on at once; no promise, no extra turn of the event loop.
      if (declaresNoBody(incoming)) return forwardWith(resolved, target, NO_BODY);
      const hold: BodyHold = {
        fits: (bytes) => deps.bodyBudget.fits(bytes),
        take: (bytes) => {
          if (outgoing.closed) return true; // nothing more is held once the request is over: its bytes go with it
          if (!deps.bodyBudget.take(bytes)) return false;
          heldBodyBytes += bytes;
          return true;
        },
      };
      readBody(incoming, outgoing, { maxBytes: deps.maxBodyBytes, hold, minBytesPerSecond: deps.limits.clientMinBodyBytesPerSecond })
        .then((body) => forwardWith(resolved, target, body))
        .catch(onRunError);
    };

    /** Signs and forwards the request once its body is read; the profile and target are checked. */
    const forwardWith = (resolved: ResolvedProfile, target: AcceptedTarget, body: Buffer): void => {
      const key = currentKey(resolved.profile, deps.now());
      if (!key) return fail(SIDECAR_ERRORS.NotReady);
      const prepared = prepareOutgoingHeaders(incoming.rawHeaders, deps.profileHeader);
      const upstreamPath = target.rawQuery === null ? target.path : `${target.path}?${target.rawQuery}`;
      const forwarder = deps.forwarders.get(resolved.upstream);
      // Framed as the caller framed it (a body always came with a length or chunking; RFC 9110 §8.6), and
      // always for the methods that carry content: some gateways answer 411 to a POST without a length.
      const contentLength = METHODS_WITH_BODY.has(method) || !declaresNoFraming(incoming) ? body.length : null;

      /** Streams an upstream answer to the caller; error codes are counted as the body passes. */
      const relay = (response: IncomingMessage, signed: SignResult, signingKey: AccessKey, prefix?: { bytes: Buffer; complete: boolean }): void => {
        const status = response.statusCode ?? 502;
        const onCode = (code: string | null): void => {
          observer.upstreamError(labels(), status, code);
          if (status === 401 && code === 'Signature.NotMatch') logMismatch(method, signed, signingKey.accessKeyId, resolved.signing);
        };
        const traceId = response.headers['x-sfd-trace-id'];
        if (typeof traceId === 'string') record.upstreamTraceId = traceId;
        const responseHeaders = responseHeadersForCaller(response.rawHeaders, status);
        if (prepared.closeRequested) responseHeaders.push('Connection', 'close');
        const head = (): boolean => {
          try {
            outgoing.writeHead(status, sendableReason(response.statusMessage), responseHeaders);
            return true;
          } catch (error) {
            // An answer Node cannot pass on as it came (a status outside 100-999, a header it refuses):
            // a 502 for the caller, not an exception out of the socket's event (which ended the process).
            // writeHead keeps what it took before it threw; the 502 takes its own status phrase.
            response.destroy();
            outgoing.statusMessage = '';
            fail(SIDECAR_ERRORS.UpstreamUnreachable, error);
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
          failedBeforeHead: (error) => fail(error instanceof SidecarError ? error.spec : SIDECAR_ERRORS.UpstreamClosed, error),
          cut: (error) => {
            record.errorCode = error instanceof SidecarError ? error.spec.code : SIDECAR_ERRORS.UpstreamClosed.code;
          },
        });
        if (status >= 400) tapErrorCode(response, prefix?.bytes ?? null, onCode);
      };

      /** @param isRetry the one re-signed retry with another key has been used; @param connectRetry the connection retries so far */
      const attempt = (signingKey: AccessKey, isRetry: boolean, connectRetry = 0): void => {
        if (outgoing.destroyed) return; // the caller went away: nothing to send upstream
        const signed = deps.sign(
          { method, path: target.path, rawQuery: target.rawQuery, extraSfdHeaders: prepared.extraSfdHeaders, body },
          { key: signingKey, host: resolved.upstream.host, options: resolved.signing },
        );
        record.accessKeyId = signingKey.accessKeyId;
        // No signed name can clash with the caller's: theirs were dropped.
        const headers = upstreamHeaderLines(prepared.lines, signed.headers, contentLength);
        const sentAt = performance.now();
        forwarder.forward(incoming, outgoing, { method, path: upstreamPath, headers, body }, {
          onResponse(response) {
            observer.upstreamAnswered(labels(), response.statusCode ?? 0, (performance.now() - sentAt) / 1000, response.headers.date);
            const refusedCodes = isRetry ? undefined : KEY_REFUSED.get(response.statusCode ?? 0);
            const alternate = refusedCodes ? alternateKey(resolved.profile, deps.now(), signingKey.accessKeyId) : null;
            if (!refusedCodes || !alternate) return relay(response, signed, signingKey);
            readPrefix(response, ERROR_PREFIX_LIMIT).then((prefix) => {
              if (outgoing.destroyed) return;
              // Cut off before its end: as when streaming, the caller's connection is cut, never left waiting.
              if (prefix.cutOff) return void outgoing.destroy();
              const code = prefix.complete ? errorCodeOf(prefix.bytes) : null;
              if (code === null || !refusedCodes.has(code)) return relay(response, signed, signingKey, prefix);
              record.resigned = true;
              observer.upstreamError(labels(), response.statusCode ?? 0, code);
              observer.resigned(resolved.profile.name);
              logger.warn('upstream refused the key; re-signing once with another key of the profile', {
                profile: resolved.profile.name,
                refusedAccessKeyId: signingKey.accessKeyId,
                retryAccessKeyId: alternate.accessKeyId,
                upstreamCode: code,
              });
              attempt(alternate, true);
            }).catch(onRunError);
          },
          onError(error, reachedUpstream) {
            if (outgoing.destroyed) return;
            const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
            const delayMs = retryDelayMs({ code, reachedUpstream }, method, connectRetry);
            if (delayMs !== null) {
              // No byte of it reached the gateway: send again after the backoff, freshly signed.
              logger.info('retrying after a connection failure', { attempt: connectRetry + 1, errorCode: code, delayMs: Math.round(delayMs) });
              setTimeout(() => {
                if (!outgoing.destroyed) attempt(signingKey, isRetry, connectRetry + 1);
              }, delayMs);
              return;
            }
            fail(error.spec, error.cause ?? error);
          },
        });
      };
      attempt(key, false);
    };

    try {
      run();
    } catch (error) {
      onRunError(error);
    }
  };
}

