// Closing the sidecar lets a request already in flight finish, and refuses new connections.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { send } from '../helpers/http.js';
import { startTestSidecar, toUpstream } from '../helpers/stack.js';

test('a request in flight when the sidecar closes completes; a new one is refused', async (t) => {
  const slow = http.createServer((_req, res) => setTimeout(() => res.end('{"done":true}'), 400));
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    slow.close();
  });
  const { sidecar, proxyUrl } = await startTestSidecar(t, { defaultUpstream: toUpstream(`http://127.0.0.1:${(slow.address() as AddressInfo).port}`) });
  const inFlight = send(`${proxyUrl}/slow`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closed = sidecar.close(5000);
  const answer = await inFlight;
  t.is(answer.status, 200);
  t.deepEqual(answer.json(), { done: true });
  await closed;
  await t.throwsAsync(send(`${proxyUrl}/late`), { code: 'ECONNREFUSED' });
});
