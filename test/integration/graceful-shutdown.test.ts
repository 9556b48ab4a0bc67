// Closing the sidecar lets a request already in flight finish, and refuses new connections.
import test from 'ava';
import { send } from '../helpers/http.js';
import { startSlowUpstream } from '../helpers/slow-upstream.js';
import { startTestSidecar, toUpstream } from '../helpers/stack.js';

test('a request in flight when the sidecar closes completes; a new one is refused', async (t) => {
  const slow = await startSlowUpstream(t, 400, '{"done":true}');
  const { sidecar, proxyUrl } = await startTestSidecar(t, { defaultUpstream: toUpstream(slow.url) });
  const inFlight = send(`${proxyUrl}/slow`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closed = sidecar.close(5000);
  const answer = await inFlight;
  t.is(answer.status, 200);
  t.deepEqual(answer.json(), { done: true });
  await closed;
  await t.throwsAsync(send(`${proxyUrl}/late`), { code: 'ECONNREFUSED' });
});
