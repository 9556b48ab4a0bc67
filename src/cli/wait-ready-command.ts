// `sfd-sidecar wait-ready [--timeout-ms N] [settings]`: waits until the sidecar's `/readyz`, on the
// admin listener SFD_ADMIN_LISTEN names, answers 200. It is the postStart hook of a classic sidecar: the kubelet
// starts the pod's next container only once the hook has returned, so
// the application's first calls find a sidecar that can sign. The image has no shell and no curl.
// Exit 0 when ready; 1 when the time runs out, with what the sidecar last said or why it did not answer.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseInteger, type ListenAddress } from '../config/parsers.js';
import { formatHostPort } from '../server/listen.js';
import type { CliIo } from '../command/cli-io.js';
import { readerOf, type CommandSettings } from '../command/command-settings.js';
import { SETTINGS } from '../config/settings.js';
import { ADMIN_PATHS } from '../config/admin-paths.js';

type Options = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** Time between two looks at /readyz. */
const POLL_MS = 50;
/** Time one look may take. */
const LOOK_TIMEOUT_MS = 1000;

export async function waitReadyCommand(settings: CommandSettings, options: Options, io: CliIo): Promise<number> {
  const reader = readerOf(settings, io);
  const admin = reader.value(SETTINGS.adminListen);
  const timeoutText = typeof options['timeout-ms'] === 'string' ? options['timeout-ms'] : '60000';
  const timeoutMs = reader.parseFrom('--timeout-ms', timeoutText, parseInteger(1, 3_600_000), false);
  reader.assertValid();
  const url = readyzUrl(admin);
  const deadline = io.now() + timeoutMs!;
  for (;;) {
    const look = await lookOnce(url);
    if (look.ready) {
      io.stderr(`sfd-sidecar wait-ready: ${url} answered 200: ready\n`);
      return 0;
    }
    if (io.now() + POLL_MS >= deadline) {
      io.stderr(`sfd-sidecar wait-ready: not ready after ${timeoutMs} ms: ${look.why}\n`);
      return 1;
    }
    await sleep(POLL_MS);
  }
}

/** The admin listener as seen from inside the pod: every address, or a wildcard one, is reached on loopback. */
function readyzUrl({ host, port }: ListenAddress): string {
  const reachable = host === '' || host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${formatHostPort(reachable, port)}${ADMIN_PATHS.ready}`;
}

type Look = { readonly ready: true } | { readonly ready: false; readonly why: string };

function lookOnce(url: string): Promise<Look> {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: LOOK_TIMEOUT_MS, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => resolve({ ready: false, why: `${url}: ${error.message}` }));
      response.on('end', () => {
        if (response.statusCode === 200) return resolve({ ready: true });
        resolve({ ready: false, why: `${url} answered ${response.statusCode}${reasonsOf(Buffer.concat(chunks))}` });
      });
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${LOOK_TIMEOUT_MS} ms`)));
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ ready: false, why: `${url}: ${error.code ?? error.message}` }),
    );
  });
}

/** The reasons a /readyz answer gives (`{"reasons": [...]}`), for the message; empty when it has none. */
function reasonsOf(body: Buffer): string {
  try {
    const reasons = (JSON.parse(body.toString('utf8')) as { reasons?: unknown }).reasons;
    return Array.isArray(reasons) && reasons.length > 0 ? ` (${reasons.map(String).join('; ')})` : '';
  } catch {
    return '';
  }
}
