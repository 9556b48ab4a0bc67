// DNS, TCP and TLS to the upstream, each with a verdict and a fix.
import { lookup } from 'node:dns/promises';
import net, { type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { UpstreamTarget } from '../config/parsers.js';
import { trustedCertificates } from '../outbound/trusted-certificates.js';
import { afterPendingIo } from './after-pending-io.js';
import { fail, ok, warn, type CheckResult } from './check-result.js';
import { SETTINGS } from '../config/settings.js';

const DAY_MS = 86_400_000;

/**
 * Node's codes for a certificate the handshake got and refused (OpenSSL's verify results, and a name
 * that does not match); any other TLS error (a reset, a port that does not speak TLS) came before a
 * certificate was seen, and is no reason to add a CA.
 */
const CERTIFICATE_REFUSED = /CERT|SIGNATURE|ISSUER|INVALID_CA|PATH_LENGTH|INVALID_PURPOSE|HOSTNAME_MISMATCH/;

export async function checkDns(upstream: UpstreamTarget): Promise<CheckResult> {
  if (net.isIP(upstream.hostname)) return ok('dns', `${upstream.hostname} is an address; no lookup needed`);
  try {
    const addresses = await lookup(upstream.hostname, { all: true });
    return ok('dns', `${upstream.hostname} resolves to ${addresses.map((a) => a.address).join(', ')}`);
  } catch (error) {
    return fail(
      'dns',
      `${upstream.hostname} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      `check ${SETTINGS.upstreamUrl.env} and the pod's DNS (resolv.conf, egress to the DNS server)`,
    );
  }
}

export function checkTcp(upstream: UpstreamTarget, timeoutMs: number): Promise<CheckResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect({ host: upstream.hostname, port: upstream.port });
    const done = (result: CheckResult): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(
      timeoutMs,
      afterPendingIo(() =>
        done(
          fail(
            'tcp',
            `no connection to ${upstream.host} within ${timeoutMs} ms`,
            'check egress network policies and firewalls towards the gateway',
          ),
        ),
      ),
    );
    socket.once('connect', () =>
      done(
        ok(
          'tcp',
          `connected to ${upstream.hostname}:${upstream.port} in ${Math.round(performance.now() - started)} ms`,
        ),
      ),
    );
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(
        fail(
          'tcp',
          `cannot connect to ${upstream.hostname}:${upstream.port} (${error.code ?? error.message})`,
          `check ${SETTINGS.upstreamUrl.env}, egress network policies and firewalls`,
        ),
      ),
    );
  });
}

/** @param tunnel an open tunnel through the egress proxy to the upstream; a direct connection when omitted */
export function checkTls(
  upstream: UpstreamTarget,
  ca: string | null,
  nowMs: number,
  timeoutMs: number,
  tunnel?: Socket,
): Promise<CheckResult> {
  if (upstream.protocol !== 'https:') {
    return Promise.resolve(
      warn(
        'tls',
        `${upstream.origin} is plain HTTP: keys and signatures cross the network unencrypted`,
        `use an https:// ${SETTINGS.upstreamUrl.env}`,
      ),
    );
  }
  return new Promise((resolve) => {
    const socket = tlsConnect({
      ...(tunnel ? { socket: tunnel } : { host: upstream.hostname, port: upstream.port }),
      servername: net.isIP(upstream.hostname) ? undefined : upstream.hostname,
      ca: trustedCertificates(ca),
      rejectUnauthorized: true,
    });
    const done = (result: CheckResult): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(
      timeoutMs,
      afterPendingIo(() =>
        done(fail('tls', `no TLS handshake within ${timeoutMs} ms`, 'check that the port speaks TLS')),
      ),
    );
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const expires = Date.parse(cert.valid_to);
      const subject = String(cert.subject?.CN ?? cert.subjectaltname ?? 'unknown');
      const issuer = String(cert.issuer?.CN ?? cert.issuer?.O ?? 'unknown');
      const detail = `certificate for ${subject}, issued by ${issuer}, valid until ${new Date(expires).toISOString()}`;
      done(
        expires - nowMs < 14 * DAY_MS
          ? warn('tls', `${detail}: expires within 14 days`, 'the gateway operator must renew its certificate')
          : ok('tls', detail),
      );
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      if (CERTIFICATE_REFUSED.test(code)) {
        return done(
          fail(
            'tls',
            `the certificate of ${upstream.host} is not trusted (${code})`,
            `if the gateway uses a private CA, put its PEM in ${SETTINGS.upstreamCaFile.env}; otherwise check ` +
              `${SETTINGS.upstreamUrl.env} names the right host`,
          ),
        );
      }
      done(
        fail(
          'tls',
          `the TLS handshake with ${upstream.host} failed before any certificate (${code})`,
          `check that ${upstream.host} speaks TLS on that port (an http:// gateway needs an http:// ` +
            `${SETTINGS.upstreamUrl.env}), and that nothing in between (an egress proxy, a firewall) cuts ` +
            'the connection',
        ),
      );
    });
  });
}
