// A real injector on port 0 with a self-signed certificate, and a client that posts AdmissionReviews
// over HTTPS trusting that certificate.
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';
import { readRegularFile } from '../../src/files/regular-file.js';
import type { InjectionOptions } from '../../src/injection/options.js';
import {
  startInjector,
  type InjectorOptions,
  type RunningInjector,
} from '../../src/injection/webhook/start-injector.js';
import { loadTlsPair, watchTlsFiles } from '../../src/injection/certificates/tls-files.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { DEFAULTS } from './injection.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';
import { selfSignedCertificate } from './tls-server.js';

export interface InjectorStack {
  readonly injector: RunningInjector;
  readonly logs: CapturedLogs;
  /** The directory holding cert.pem and key.pem (replace them to renew). */
  readonly tlsDir: string;
  readonly adminUrl: string;
  post(
    path: string,
    body: string | Buffer,
    ca?: string,
  ): Promise<{ status: number; body: string; certificate: string }>;
  ca(): string;
}

/** What registers the stack's shutdown: an ava test's context, or a script's own list. */
export interface Teardown {
  teardown(close: () => Promise<void>): void;
}

export async function startInjectorStack(
  t: Teardown,
  defaults: InjectionOptions = DEFAULTS,
  overrides: Partial<Pick<InjectorOptions, 'limits' | 'answerDeadlineMs' | 'policy'>> & { keyType?: 'ec' | 'rsa' } = {},
): Promise<InjectorStack> {
  const { keyType, ...options } = overrides;
  const made = await selfSignedCertificate('localhost', undefined, keyType);
  const tlsDir = mkdtempSync(join(tmpdir(), 'sfd-injector-tls-'));
  copyFileSync(made.certFile, join(tlsDir, 'cert.pem'));
  copyFileSync(made.keyFile, join(tlsDir, 'key.pem'));
  const files = { certFile: join(tlsDir, 'cert.pem'), keyFile: join(tlsDir, 'key.pem'), readFile: readRegularFile };
  const loaded = await loadTlsPair(files);
  if (!loaded.ok) throw new Error(loaded.problem);
  const logs = captureLogs();
  const injector = await startInjector({
    listen: { host: '127.0.0.1', port: 0 },
    adminListen: { host: '127.0.0.1', port: 0 },
    defaults,
    tls: {
      initial: loaded.pair,
      watch: (use, current) =>
        watchTlsFiles(files, { logger: logs.logger, use, current, intervalMs: 60_000, stalledAfterMs: 60_000 }),
    },
    limits: DEFAULT_LIMITS,
    logger: logs.logger,
    metrics: createMetrics('injector'),
    now: Date.now,
    ...options,
  });
  t.teardown(() => injector.close(0));
  const ca = readFileSync(files.certFile, 'utf8');
  return {
    injector,
    logs,
    tlsDir,
    adminUrl: `http://127.0.0.1:${injector.adminAddress.port}`,
    ca: () => ca,
    post(path, body, trusted = ca) {
      return new Promise((resolve, reject) => {
        const request = https.request(
          {
            host: '127.0.0.1',
            servername: 'localhost',
            port: injector.address.port,
            path,
            method: 'POST',
            ca: trusted,
            agent: false,
            headers: { 'Content-Type': 'application/json' },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => {
              const socket = response.socket as unknown as { getPeerCertificate(): { fingerprint256: string } };
              resolve({
                status: response.statusCode ?? 0,
                body: text,
                certificate: socket.getPeerCertificate().fingerprint256,
              });
            });
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    },
  };
}
