// The signing handler: resolve the target, read the body once under the limit, drop and replace the
// caller's signature headers, sign, forward, stream the answer back, and log one line per request
// (design, "The path of one request").
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { UpstreamTarget } from '../config/parsers.js';
import { SidecarError, SIDECAR_ERRORS, type SidecarErrorSpec } from '../errors.js';
import { describeError, type Logger } from '../observability/logger.js';
import type { Forwarder } from './forwarder.js';
import { prepareOutgoingHeaders, responseHeadersForCaller } from './outgoing-headers.js';
import { readBody } from './read-body.js';
import { resolveRequestTarget } from './request-target.js';
import type { RequestSigner } from './request-signer.js';
import { newTraceId, sendSidecarError } from './send-error.js';

export interface ProxyHandlerDeps {
  readonly upstream: UpstreamTarget;
  readonly maxBodyBytes: number;
  readonly sign: RequestSigner;
  readonly forwarder: Forwarder;
  readonly logger: Logger;
}

export type ProxyHandler = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

/** What one request's log line says (never a secret, a signature or a header value). */
interface RequestRecord {
  method: string;
  path: string;
  status?: number;
  accessKeyId?: string;
  upstreamTraceId?: string;
  sidecarTraceId?: string;
  errorCode?: string;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export function createProxyHandler(deps: ProxyHandlerDeps): ProxyHandler {
  const { logger } = deps;

  return (incoming, outgoing) => {
    const started = performance.now();
    const rawUrl = incoming.url ?? '';
    const queryAt = rawUrl.indexOf('?');
    const record: RequestRecord = { method: incoming.method ?? '', path: queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt) };
    outgoing.once('close', () => {
      logger.info('request', {
        ...record,
        status: outgoing.headersSent ? outgoing.statusCode : record.status,
        completed: outgoing.writableFinished,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      });
    });

    const fail = (spec: SidecarErrorSpec, cause?: unknown): void => {
      record.sidecarTraceId = newTraceId();
      record.errorCode = spec.code;
      if (cause !== undefined) logger.warn('sidecar error', { code: spec.code, sidecarTraceId: record.sidecarTraceId, ...describeError(cause) });
      sendSidecarError(outgoing, spec, record.sidecarTraceId, !incoming.complete);
    };

    const run = async (): Promise<void> => {
      const target = resolveRequestTarget(rawUrl, deps.upstream);
      if (!target.ok) return fail(SIDECAR_ERRORS[target.error]);
      const body = await readBody(incoming, deps.maxBodyBytes);
      const prepared = prepareOutgoingHeaders(incoming.rawHeaders);
      const method = record.method;
      const signed = deps.sign({ method, path: target.path, rawQuery: target.rawQuery, extraSfdHeaders: prepared.extraSfdHeaders, body });
      if (!signed) return fail(SIDECAR_ERRORS.NotReady);
      record.accessKeyId = signed.accessKeyId;
      const headers: OutgoingHttpHeaders = { ...prepared.headers, ...signed.headers };
      if (body.length > 0 || METHODS_WITH_BODY.has(method)) headers['Content-Length'] = body.length;
      const path = target.rawQuery === null ? target.path : `${target.path}?${target.rawQuery}`;
      deps.forwarder.forward(incoming, outgoing, { method, path, headers, body }, {
        onResponse(response) {
          const traceId = response.headers['x-sfd-trace-id'];
          if (typeof traceId === 'string') record.upstreamTraceId = traceId;
          const responseHeaders = responseHeadersForCaller(response.rawHeaders);
          if (prepared.closeRequested) responseHeaders.push('Connection', 'close');
          outgoing.writeHead(response.statusCode ?? 502, response.statusMessage, responseHeaders);
          pipeline(response, outgoing, () => undefined);
        },
        onError(error) {
          if (outgoing.destroyed) return;
          fail(error.spec, error.cause ?? error);
        },
      });
    };

    run().catch((error: unknown) => {
      if (error instanceof SidecarError) fail(error.spec, error.cause);
      else fail(SIDECAR_ERRORS.Internal, error);
    });
  };
}
