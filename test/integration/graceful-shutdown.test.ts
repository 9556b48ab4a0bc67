// Closing the sidecar lets a request already in flight finish, and refuses new connections.
import test from 'ava';
import { send } from '../helpers/http.js';
import { eventually } from '../helpers/time.js';
import { startSlowUpstream } from '../helpers/slow-upstream.js';
import { startTestSidecar, toUpstream } from '../helpers/stack.js';

test('a request in flight when the sidecar closes completes; a new one is refused', async (t) => {
  const slow = await startSlowUpstream(t, 400, '{"done":true}');
  const { sidecar, proxyUrl } = await startTestSidecar(t, { defaultUpstream: toUpstream(slow.url) });
  const inFlight = send(`${proxyUrl}/slow`);
  t.true(await eventually(() => slow.stats.total === 1), 'the request reached the upstream');
  const closed = sidecar.close(5000);
  const answer = await inFlight;
  t.is(answer.status, 200);
  t.deepEqual(answer.json(), { done: true });
  await closed;
  await t.throwsAsync(send(`${proxyUrl}/late`), { code: 'ECONNREFUSED' });
});
