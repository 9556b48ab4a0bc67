// SFD_MAX_BUFFERED_BODY_BYTES bounds the request-body bytes held at once: a body that does not fit in
// what the requests in flight leave is refused with 503 (before it is sent, when it declares its
// length), a smaller one still goes through, and the bytes come back when each request ends.
import test from 'ava';
import { eventually } from '../helpers/time.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { rawExchangeEnding, send, sendExpectingContinue, statusOf, type Answer } from '../helpers/http.js';
import { startSlowUpstream } from '../helpers/slow-upstream.js';
import { startTestSidecar, toUpstream } from '../helpers/stack.js';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';

const json = (bytes: number): string => `{"pad":"${'a'.repeat(bytes - 10)}"}`;

async function startHeldSidecar(t: Parameters<typeof startSlowUpstream>[0], budget: number) {
  const slow = await startSlowUpstream(t, 600);
  const stack = await startTestSidecar(t, {
    defaultUpstream: toUpstream(slow.url),
    limits: { ...DEFAULT_LIMITS, upstreamRetries: 0, retryMethods: [], maxBufferedBodyBytes: budget },
  });
  const scrape = async () => parseExposition((await send(`${stack.adminUrl}/metrics`)).body.toString());
  const buffered = async (): Promise<number | undefined> => valueOf(await scrape(), 'sfd_buffered_body_bytes');
  /** True once the gauge reads `expected` (polled for up to 3 s). */
  const settles = (expected: number): Promise<boolean> => eventually(async () => (await buffered()) === expected);
  const post = (bytes: number): Promise<Answer> =>
    send(`${stack.proxyUrl}/x`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: json(bytes) });
  return { ...stack, scrape, buffered, settles, post };
}

test(
  'a body that does not fit is refused with 503 before it is sent; a smaller one goes through; the bytes come ' +
    'back',
  async (t) => {
    const sidecar = await startHeldSidecar(t, 250_000);
    const held = [sidecar.post(100_000), sidecar.post(100_000)];
    t.true(await sidecar.settles(200_000), 'two bodies held while the upstream takes its time');

    const refused = await sendExpectingContinue(`${sidecar.proxyUrl}/x`, {
      headers: { 'Content-Type': 'application/json' },
      body: json(100_000),
    });
    t.is(refused.status, 503);
    t.is((JSON.parse(refused.body.toString()) as { code: string }).code, 'Sidecar.BodyBufferFull');
    t.false(refused.bodySent, 'refused from its Content-Length: the body was never asked for');
    t.is(refused.headers.connection, 'close');
    t.regex(String(refused.headers['x-sfd-trace-id']), /^[0-9a-f]{32}$/);

    t.is((await sidecar.post(50_000)).status, 200, 'the 50,000 bytes left still take a body that size');
    t.deepEqual(
      (await Promise.all(held)).map((a) => a.status),
      [200, 200],
    );
    t.true(await sidecar.settles(0), 'every byte given back once the requests ended');
    t.is((await sidecar.post(100_000)).status, 200, 'served again once the bodies are gone');
    t.is(valueOf(await sidecar.scrape(), 'sfd_sidecar_errors_total', { code: 'Sidecar.BodyBufferFull' }), 1);
    t.true(
      await eventually(() =>
        sidecar.logs
          .lines()
          .some(
            (line) => line.event === 'request' && line.errorCode === 'Sidecar.BodyBufferFull' && line.status === 503,
          ),
      ),
      'the refusal is in the request log',
    );
  },
);

test(
  'a chunked body is held as it arrives: once it passes the bound, while still arriving, it is cut with 503 and ' +
    'the connection closed',
  async (t) => {
    const sidecar = await startHeldSidecar(t, 150_000);
    const held = sidecar.post(100_000);
    t.true(await sidecar.settles(100_000));

    const chunk = 'b'.repeat(30_000);
    const head =
      'POST /x HTTP/1.1\r\nHost: sidecar\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n';
    // No last chunk: the caller is still sending.
    const chunked = `${head}\r\n${[chunk, chunk].map((c) => `${c.length.toString(16)}\r\n${c}\r\n`).join('')}`;
    const { raw, endedBy } = await rawExchangeEnding(Number(new URL(sidecar.proxyUrl).port), chunked, 3000);
    t.is(statusOf(raw), 503);
    t.true(raw.includes('Sidecar.BodyBufferFull'));
    t.true(/\r\nConnection: close\r\n/i.test(raw));
    t.is(endedBy, 'server');

    t.is((await held).status, 200, 'the request already held is not disturbed');
    t.true(await sidecar.settles(0), "the refused body's bytes were given back too");
  },
);
