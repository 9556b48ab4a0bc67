// The injector's memory under hostile callers, over real sockets: what reviews in flight hold (bodies as
// they arrive, answers until read) is bounded across every connection; a review that does not fit gets
// 503 at once while the others go on; an answer nobody reads closes its connection at the deadline and
// gives its memory back.
import tls from 'node:tls';
import test from 'ava';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';
import { admissionReviewOf } from '../helpers/admission-review.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { send } from '../helpers/http.js';
import { startInjectorStack, type InjectorStack } from '../helpers/injector-stack.js';
import { eventually } from '../helpers/time.js';
import { DEFAULTS } from '../helpers/injection.js';

const MiB = 1024 * 1024;

/** A review whose pod carries `padding` bytes in an annotation: the largest a caller may send. */
function largeReview(padding: number): string {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'big', labels: { 'sfd-sidecar.io/inject': 'true' }, annotations: { note: 'x'.repeat(padding) } },
    spec: { containers: [{ name: 'app', image: 'a' }] },
  };
  return admissionReviewOf(pod);
}

/** A raw TLS connection that sends a request and, unless told, never reads what comes back. */
function rawRequest(stack: InjectorStack, head: string, body: string): tls.TLSSocket {
  const socket = tls.connect({
    host: '127.0.0.1',
    servername: 'localhost',
    port: stack.injector.address.port,
    ca: stack.ca(),
  });
  socket.write(head + body);
  return socket;
}

/** What the injector holds now, as its metrics say. */
async function held(stack: InjectorStack): Promise<number> {
  const samples = parseExposition((await send(`${stack.adminUrl}/metrics`)).body.toString());
  return valueOf(samples, 'sfd_buffered_body_bytes', {}) ?? 0;
}

/** A review whose answer is large: every one of many containers gets SFD_SIDECAR_URL. */
function manyContainers(count: number): string {
  const containers = Array.from({ length: count }, (_, i) => ({ name: `c${i}`, image: 'a' }));
  return admissionReviewOf({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'wide' }, spec: { containers } });
}

const headFor = (length: number, path = '/mutate'): string =>
  `POST ${path} HTTP/1.1\r\nHost: injector\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

test('bodies in flight are bounded across connections: one that does not fit gets 503, others go on', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS, {
    limits: { ...DEFAULT_LIMITS, maxBufferedBodyBytes: 8 * MiB },
  });
  const review = largeReview(3 * MiB - 1024);
  // Two callers send all but the last byte of a 3 MiB review and wait: 6 MiB held of the 8.
  const stalled = [0, 1].map(() => rawRequest(stack, headFor(Buffer.byteLength(review)), review.slice(0, -1)));
  t.teardown(() => stalled.forEach((socket) => socket.destroy()));
  const stalledBytes = 2 * (Buffer.byteLength(review) - 1);
  t.true(await eventually(async () => (await held(stack)) === stalledBytes, 5000), 'both stalled bodies are held');
  const third = await stack.post('/mutate', review);
  t.is(third.status, 503);
  t.is((JSON.parse(third.body) as { code: string }).code, 'Sidecar.BodyBufferFull');
  const small = await stack.post('/mutate', largeReview(10));
  t.is(small.status, 200, 'a small review still fits and is answered');
  stalled.forEach((socket) => socket.destroy());
});

test('an answer nobody reads holds no memory once written; a pod made to be huge is refused cheaply', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS, {
    limits: { ...DEFAULT_LIMITS, maxBufferedBodyBytes: 8 * MiB },
    answerDeadlineMs: 2000,
  });
  // The largest answer a pod may get here: 1,000 containers, each given SFD_SIDECAR_URL.
  const review = manyContainers(1000);
  const unread = rawRequest(stack, headFor(Buffer.byteLength(review), '/mutate/namespace'), review);
  unread.pause();
  unread.on('error', () => undefined);
  t.teardown(() => unread.destroy());
  t.true(await eventually(async () => (await held(stack)) === 0, 10_000), 'nothing stays held for the unread answer');
  const read = await stack.post('/mutate/namespace', review);
  t.is(read.status, 200);
  t.truthy((JSON.parse(read.body) as { response: { patch?: string } }).response.patch, 'the same review is injected');
  const huge = JSON.parse((await stack.post('/mutate/namespace', manyContainers(80_000))).body) as {
    response: { allowed: boolean; status?: { message: string } };
  };
  t.false(huge.response.allowed);
  t.regex(huge.response.status!.message, /Sidecar\.PodInvalid: .*80000 containers, more than the 1000/);
});
