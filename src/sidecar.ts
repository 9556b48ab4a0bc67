// Composition: builds the signing and admin listeners from injected parts and starts them.
// Nothing here reads the environment or handles signals; main.ts does.
import type { AddressInfo } from 'node:net';
import { createAdminApp, type Readiness } from './admin/create-admin-app.js';
import type { ListenAddress, UpstreamTarget } from './config/parsers.js';
import { SIDECAR_ERRORS, errorBody } from './errors.js';
import type { Logger } from './observability/logger.js';
import { createProxyApp } from './proxy/create-proxy-app.js';
import { createForwarder, type Forwarder } from './proxy/forwarder.js';
import { createProxyHandler } from './proxy/handle-proxy-request.js';
import { createRequestSigner } from './proxy/request-signer.js';
import { JSON_CONTENT_TYPE, newTraceId } from './proxy/send-error.js';
import { createHttpServer } from './server/create-http-server.js';
import { closeGracefully, formatAddress, listen } from './server/listen.js';
import type { NonceSource } from './signing/nonce.js';
import type { AccessKey, SigningOptions } from './signing/types.js';

export interface SidecarOptions {
  readonly upstream: UpstreamTarget;
  readonly listen: ListenAddress;
  readonly adminListen: ListenAddress;
  readonly signing: SigningOptions;
  readonly maxBodyBytes: number;
  readonly upstreamTimeoutMs: number;
  readonly upstreamCa: string | null;
  readonly currentKey: () => AccessKey | null;
  readonly logger: Logger;
  readonly now: () => number;
  readonly nextNonce: NonceSource;
}

export interface RunningSidecar {
  readonly proxyAddress: AddressInfo;
  readonly adminAddress: AddressInfo;
  readonly forwarder: Forwarder;
  readiness(): Readiness;
  /** Stops accepting, lets in-flight requests finish for up to `drainMs`, then closes everything. */
  close(drainMs: number): Promise<void>;
}

export async function startSidecar(options: SidecarOptions): Promise<RunningSidecar> {
  const forwarder = createForwarder({ upstream: options.upstream, timeoutMs: options.upstreamTimeoutMs, ca: options.upstreamCa });
  const sign = createRequestSigner({
    host: options.upstream.host,
    options: options.signing,
    currentKey: options.currentKey,
    now: options.now,
    nextNonce: options.nextNonce,
  });
  const handler = createProxyHandler({ upstream: options.upstream, maxBodyBytes: options.maxBodyBytes, sign, forwarder, logger: options.logger });
  const proxyServer = createHttpServer(createProxyApp(handler), { onUnparsable: unparsableAnswer });
  let proxyBound = false;
  const readiness = (): Readiness => {
    const reasons: string[] = [];
    if (!proxyBound) reasons.push('the signing listener is not bound');
    if (!options.currentKey()) reasons.push('no usable signing key');
    return { ready: reasons.length === 0, reasons };
  };
  const adminServer = createHttpServer(createAdminApp({ readiness }), { onUnparsable: unparsableAnswer });

  const adminAddress = await listen(adminServer, options.adminListen);
  let proxyAddress: AddressInfo;
  try {
    proxyAddress = await listen(proxyServer, options.listen);
  } catch (error) {
    await closeGracefully(adminServer, 0);
    forwarder.close();
    throw error;
  }
  proxyBound = true;
  options.logger.info('listening', { signing: formatAddress(proxyAddress), admin: formatAddress(adminAddress), upstream: options.upstream.origin });

  return {
    proxyAddress,
    adminAddress,
    forwarder,
    readiness,
    async close(drainMs) {
      proxyBound = false;
      await closeGracefully(proxyServer, drainMs);
      await closeGracefully(adminServer, 0);
      forwarder.close();
    },
  };
}

function unparsableAnswer(): { status: number; body: string; headers: Record<string, string> } {
  const spec = SIDECAR_ERRORS.BadRequest;
  return { status: spec.status, body: errorBody(spec), headers: { 'Content-Type': JSON_CONTENT_TYPE, 'x-sfd-trace-id': newTraceId() } };
}
