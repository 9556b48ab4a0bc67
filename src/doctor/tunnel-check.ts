// With an egress proxy (SFD_UPSTREAM_PROXY or HTTPS_PROXY), the doctor asks the proxy for the same
// CONNECT tunnel the sidecar opens, and checks TLS inside it: a proxy that wants credentials or
// refuses the gateway is named with its status and the fix.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { describeUrl } from '../config/describe-url.js';
import { proxyAuthorization } from '../outbound/egress-route.js';
import type { UpstreamTarget } from '../config/parsers.js';
import { trustedCertificates } from '../outbound/trusted-certificates.js';
import { afterPendingIo } from './after-pending-io.js';
import { fail, ok, type CheckResult } from './check-result.js';
import { SETTINGS } from '../config/settings.js';

export interface TunnelOutcome {
  readonly result: CheckResult;
  /** The open tunnel (the caller checks TLS in it, then closes it); null when it failed. */
  readonly socket: Socket | null;
}

const CHECK = 'egress proxy';
/** OpenSSL's and Node's codes for a certificate that could not be verified. */
const CERTIFICATE_PROBLEM = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS/;

/**
 * @param ca trusted in addition to the system roots for an https:// proxy, as the sidecar does (SFD_UPSTREAM_CA_FILE)
 */
export function openTunnel(
  proxy: URL,
  upstream: UpstreamTarget,
  ca: string | null,
  timeoutMs: number,
): Promise<TunnelOutcome> {
  const proxyName = describeUrl(proxy);
  const target = `${upstream.hostname.includes(':') ? `[${upstream.hostname}]` : upstream.hostname}:${upstream.port}`;
  const proxyHost = proxy.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const started = performance.now();
    const request = (proxy.protocol === 'https:' ? https : http).request({
      host: proxyHost,
      // Node would take the TLS name from the Host header, which names the target: the proxy's own name
      // is checked ('' for an address, which Node then checks against the certificate's IP entries).
      servername: isIP(proxyHost) ? '' : proxyHost,
      port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: target,
      headers: { Host: target, ...proxyAuthorization(proxy) },
      agent: false,
      timeout: timeoutMs,
      ...(proxy.protocol === 'https:' && ca ? { ca: trustedCertificates(ca) } : {}),
    });
    let settled = false;
    const done = (outcome: TunnelOutcome): void => {
      if (settled) return void outcome.socket?.destroy();
      settled = true;
      resolve(outcome);
    };
    request.once('connect', (answer: IncomingMessage, socket: Socket) => {
      const status = answer.statusCode ?? 0;
      if (status === 200) {
        return done({
          result: ok(
            CHECK,
            `${proxyName} opened a tunnel to ${target} in ${Math.round(performance.now() - started)} ms`,
          ),
          socket,
        });
      }
      socket.destroy();
      done({ result: refusal(proxyName, target, status, answer.statusMessage ?? ''), socket: null });
    });
    request.once(
      'timeout',
      afterPendingIo(
        () =>
          settled || request.destroy(Object.assign(new Error('timeout'), { code: `no answer within ${timeoutMs} ms` })),
      ),
    );
    request.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      const fix = CERTIFICATE_PROBLEM.test(code)
        ? `the proxy's TLS certificate is not trusted: put its CA in ${SETTINGS.upstreamCaFile.env} ` +
          "(beside the gateway's, if it has its own)"
        : `check ${SETTINGS.upstreamProxy.env} (or HTTPS_PROXY, which it defaults to) and egress to the proxy`;
      done({ result: fail(CHECK, `cannot reach ${proxyName} (${code})`, fix), socket: null });
    });
    request.end();
  });
}

function refusal(proxyName: string, target: string, status: number, statusText: string): CheckResult {
  const detail = `${proxyName} refused the tunnel to ${target} with ${status} ${statusText}`.trim();
  if (status === 407)
    return fail(
      CHECK,
      detail,
      `the proxy wants credentials: set ${SETTINGS.upstreamProxy.env} to http://user:password@host:port`,
    );
  return fail(
    CHECK,
    detail,
    `ask the proxy's operator to allow ${target}, or, if the pod can reach it directly, add the host to ` +
      `${SETTINGS.upstreamNoProxy.env}`,
  );
}
