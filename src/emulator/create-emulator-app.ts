// The emulated gateway: every request must carry a valid signature in the one accepted form, then
// customer, rate-limit and echo routes answer from in-memory state. Every answer carries a 32-hex
// x-sfd-trace-id and the gateway's Date from the emulator's own clock.
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { addCustomerRoutes } from './customer-routes.js';
import { replyError, replyJson, type EmulatorContext, type EmulatorEnv } from './emulator-context.js';
import type { EmulatorState } from './emulator-state.js';
import { GATEWAY_ERRORS } from './gateway-errors.js';
import { addLifecycleRoute } from './lifecycle-route.js';
import { addRateLimitRoutes } from './rate-limit-routes.js';
import { createReplayGuard } from './replay-guard.js';
import { verifyRequest } from './verifier.js';

/** Answers what the emulator received, after verification: for tests of byte-exact forwarding. */
export const ECHO_PREFIX = '/_emulator/echo';

const KNOWN_PATHS = [
  /^\/v1\.[12]\/customer(\/[^/]*)?$/,
  /^\/v1\.2\/customerChildren\/[^/]*$/,
  /^\/cdn\/v1\.0\/services\/[^/]*\/rateLimit$/,
];

export function createEmulatorApp(state: EmulatorState): Hono<EmulatorEnv> {
  const app = new Hono<EmulatorEnv>();
  const replays = createReplayGuard(3_600_000);

  app.use('*', async (c, next) => {
    c.header('x-sfd-trace-id', randomBytes(16).toString('hex'));
    c.header('Date', new Date(state.now()).toUTCString());
    const incoming = c.env.incoming;
    const body = await readAll(incoming);
    const verdict = verifyRequest(
      { method: incoming.method ?? '', target: incoming.url ?? '', rawHeaders: incoming.rawHeaders, body },
      state.form,
      state.keys,
      state.now(),
    );
    if (!verdict.ok) return replyError(c, verdict.error);
    if (!replays.firstUse(verdict.accessKeyId, verdict.nonce, state.now()))
      return replyError(c, GATEWAY_ERRORS.nonceReplayed);
    state.accepted.push({ accessKeyId: verdict.accessKeyId, atMs: state.now(), signedAtMs: verdict.signedAtMs });
    if (state.accepted.length > 100_000) state.accepted.splice(0, state.accepted.length - 100_000);
    c.set('body', body);
    c.set('key', verdict.key);
    c.set('accessKeyId', verdict.accessKeyId);
    await next();
  });

  app.all(`${ECHO_PREFIX}/*`, echo);
  app.all(ECHO_PREFIX, echo);
  addLifecycleRoute(app, state);
  addCustomerRoutes(app, state);
  addRateLimitRoutes(app, state);
  app.notFound((c) => {
    const path = (c.env.incoming.url ?? '').split('?')[0] ?? '';
    return replyError(c, KNOWN_PATHS.some((p) => p.test(path)) ? GATEWAY_ERRORS.method : GATEWAY_ERRORS.uri);
  });
  app.onError((_error, c) => replyError(c, GATEWAY_ERRORS.badRequest));
  return app;
}

function echo(c: EmulatorContext): Response {
  const { method, url, rawHeaders } = c.env.incoming;
  return replyJson(c, { method, target: url, rawHeaders, bodyBase64: c.get('body').toString('base64') });
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
