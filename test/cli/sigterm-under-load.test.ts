// SIGTERM under load: every request in flight completes, new connections are refused, and the process
// exits 0 within the drain time.
import test from 'ava';
import { startCli } from '../helpers/cli-process.js';
import { connectionRefused, send } from '../helpers/http.js';
import { eventually } from '../helpers/time.js';
import { startSlowUpstream } from '../helpers/slow-upstream.js';

test('on SIGTERM the requests in flight complete and the process exits 0 in bounded time', async (t) => {
  const slow = await startSlowUpstream(t, 1000);
  const sidecar = await startCli(['serve'], /"event":"listening"/, {
    env: {
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: slow.url,
      SFD_ACCESS_KEY_ID: 'AKTERM',
      SFD_ACCESS_KEY_SECRET: 'sigterm-test-secret-5e21',
      SFD_SHUTDOWN_TIMEOUT_MS: '5000',
    },
  });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const port = /"signing":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  const inFlight = Array.from({ length: 20 }, (_, i) => send(`http://127.0.0.1:${port}/v1.1/customer/${i}`));
  // In flight means at the upstream: a connection still in the listen backlog would be reset by the close.
  t.true(await eventually(() => slow.stats.total === 20, 5000), 'all 20 reached the upstream');
  const signalled = Date.now();
  sidecar.child.kill('SIGTERM');
  const answers = await Promise.all(inFlight);
  t.deepEqual(
    answers.map((a) => a.status),
    Array.from({ length: 20 }, () => 200),
  );
  t.true(await eventually(() => connectionRefused(Number(port))), 'the listener closes once the answers are out');
  await t.throwsAsync(send(`http://127.0.0.1:${port}/late`), { code: 'ECONNREFUSED' });
  t.is(await sidecar.exited, 0);
  t.true(Date.now() - signalled < 5000, 'exits within the drain time');
});
