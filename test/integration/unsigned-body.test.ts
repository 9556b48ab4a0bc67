// A body the signature would not cover never reaches the gateway: under the default query placement a
// GET or HEAD with a query signs the query in the body's place, so a body sent with it could be
// swapped on the way and the gateway would still accept the request. It is refused (400
// Sidecar.UnsignedBody), by its length or once read when chunked; an empty body still passes.
import http from 'node:http';
import test from 'ava';
import { send } from '../helpers/http.js';
import { startStack } from '../helpers/stack.js';

/** A raw request, so that the test chooses the framing of the body. */
function raw(
  url: string,
  options: { method: string; body?: string; chunked?: boolean },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: options.method,
      headers: options.chunked
        ? { 'Transfer-Encoding': 'chunked' }
        : { 'Content-Length': Buffer.byteLength(options.body ?? '') },
    });
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    if (options.chunked && options.body) request.write(options.body);
    request.end(options.chunked ? undefined : options.body);
  });
}

test('a GET or HEAD with a query and a body is refused and never forwarded; an empty body passes', async (t) => {
  const { proxyUrl, emulator } = await startStack(t);
  const url = `${proxyUrl}/v1.1/customer/12345?a=1`;
  const before = emulator.state.accepted.length;
  for (const [method, chunked] of [
    ['GET', false],
    ['GET', true],
    ['HEAD', false],
  ] as const) {
    const answer = await raw(url, { method, body: '{"amount":1}', chunked });
    t.is(answer.status, 400, `${method} ${chunked ? 'chunked' : 'with a length'}`);
    if (method !== 'HEAD') t.is((JSON.parse(answer.body) as { code: string }).code, 'Sidecar.UnsignedBody');
  }
  t.is(emulator.state.accepted.length, before, 'the gateway saw none of them');
  t.is((await raw(url, { method: 'GET', body: '' })).status, 200, 'Content-Length: 0');
  t.is((await raw(url, { method: 'GET', chunked: true })).status, 200, 'an empty chunked body');
  t.is((await send(url)).status, 200, 'no body');
  const posted = await raw(`${proxyUrl}/_emulator/echo?a=1`, { method: 'POST', body: '{"amount":1}' });
  t.is(posted.status, 200, 'a POST signs its body and goes through');
});
