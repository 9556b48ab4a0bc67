// Which signature form does the gateway accept? The same harmless signed read is sent once
// per candidate, each with a fresh date and nonce; a candidate is accepted when the answer is anything
// but 401 Signature.NotMatch. The answer's Date header also gives the clock skew.
import http from 'node:http';
import https from 'node:https';
import type { UpstreamTarget } from '../config/parsers.js';
import { errorCodeOf } from '../outbound/read-prefix.js';
import { createTunnelAgent } from '../outbound/tunnel-agent.js';
import { onUnaskedUpgrade } from '../outbound/unasked-upgrade.js';
import { agentTrust } from '../outbound/trusted-certificates.js';
import { formatSfdDate } from '../signing/format-date.js';
import type { NonceSource } from '../signing/nonce.js';
import { signRequest } from '../signing/sign-request.js';
import { V2_STRING_SHAPES, type AccessKey, type SigningOptions } from '../signing/types.js';

export interface ProbeAnswer {
  readonly status: number | null;
  readonly code: string | null;
  /** Upstream Date minus local clock, ms; null without a Date header. */
  readonly skewMs: number | null;
  readonly body: string;
  readonly error?: string;
}

export interface Prober {
  probe(form: SigningOptions, path: string, rawQuery: string | null): Promise<ProbeAnswer>;
}

export interface ProberDeps {
  readonly upstream: UpstreamTarget;
  readonly key: AccessKey;
  readonly ca: string | null;
  /** The egress proxy the upstream is reached through, as the sidecar reaches it; null: directly. */
  readonly proxy: URL | null;
  readonly now: () => number;
  readonly nextNonce: NonceSource;
  readonly timeoutMs: number;
}

export function createProber(deps: ProberDeps): Prober {
  const { upstream } = deps;
  const client = upstream.protocol === 'https:' ? https : http;
  const trust = upstream.protocol === 'https:' ? agentTrust(deps.ca) : {};
  // Through the proxy as the sidecar goes; a tunnel per probe (a handful of probes, one at a time).
  const agent = deps.proxy ? createTunnelAgent(deps.proxy, { keepAlive: false }, trust) : undefined;
  return {
    probe(form, path, rawQuery) {
      const fullPath = upstream.pathPrefix + path;
      const signed = signRequest({
        method: 'GET',
        path: fullPath,
        rawQuery,
        host: upstream.host,
        extraSfdHeaders: [],
        body: Buffer.alloc(0),
        key: deps.key,
        options: form,
        date: formatSfdDate(deps.now()),
        nonce: deps.nextNonce(),
      });
      return new Promise((resolve) => {
        const request = client.request(
          {
            hostname: upstream.hostname,
            port: upstream.port,
            path: rawQuery === null ? fullPath : `${fullPath}?${rawQuery}`,
            method: 'GET',
            headers: { ...signed.headers },
            timeout: deps.timeoutMs,
            ...(agent ? { agent } : {}),
            ...trust,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.length < 64 && chunks.push(chunk));
            response.on('end', () => {
              const body = Buffer.concat(chunks).toString('utf8').slice(0, 4096);
              const dateMs = response.headers.date ? Date.parse(response.headers.date) : Number.NaN;
              const code = errorCodeOf(Buffer.from(body));
              resolve({
                status: response.statusCode ?? null,
                code,
                skewMs: Number.isNaN(dateMs) ? null : dateMs - deps.now(),
                body,
              });
            });
          },
        );
        // Settled here: a request Node has already dropped (a 101 nobody asked for) emits no error.
        request.on('timeout', () => {
          resolve({ status: null, code: null, skewMs: null, body: '', error: 'timeout' });
          request.destroy();
        });
        onUnaskedUpgrade(request, (status) =>
          resolve({
            status: null,
            code: null,
            skewMs: null,
            body: '',
            error: `the gateway switched protocols (${status})`,
          }),
        );
        request.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: null, code: null, skewMs: null, body: '', error: error.code ?? error.message }),
        );
        request.end();
      });
    },
  };
}

/** Scheme 1, then scheme 2 in every shape. */
export const CANDIDATE_FORMS: readonly Omit<SigningOptions, 'queryPlacement'>[] = [
  { signatureVersion: '1', v2StringShape: 'spec' },
  ...V2_STRING_SHAPES.map((v2StringShape) => ({ signatureVersion: '2' as const, v2StringShape })),
];

export const describeForm = (form: Omit<SigningOptions, 'queryPlacement'> & { queryPlacement?: string }): string =>
  (form.signatureVersion === '1' ? 'scheme 1' : `scheme 2, shape ${form.v2StringShape}`) +
  (form.queryPlacement ? `, query placement ${form.queryPlacement}` : '');
