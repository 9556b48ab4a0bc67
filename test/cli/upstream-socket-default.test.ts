// The default bound on upstream connections, as a user who sets nothing gets it: a sidecar process in
// front of a gateway that holds every request holds at most 256 connections to it at once, the
// requests beyond wait for one (the sidecar's own gauge counts them), and once the gateway answers,
// every request is answered over those same connections. The gateway answers on the test's cue, not
// after a delay, so what is asserted holds however busy the machine is.
import test from 'ava';
import { startCli } from '../helpers/cli-process.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { send } from '../helpers/http.js';
import { TEST_SECRET } from '../helpers/secrets.js';
import { startHeldUpstream } from '../helpers/slow-upstream.js';
import { eventually } from '../helpers/time.js';

test('SFD_UPSTREAM_MAX_SOCKETS unset: 300 requests at once use 256 upstream connections, all answered', async (t) => {
  const gateway = await startHeldUpstream(t);
  const sidecar = await startCli(['serve'], /"event":"listening"/, {
    env: {
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: gateway.url,
      SFD_ACCESS_KEY_ID: 'AKDEFAULTS1',
      SFD_ACCESS_KEY_SECRET: TEST_SECRET,
    },
  });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const port = /"signing":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  const admin = /"admin":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  const answers = Promise.all(
    Array.from({ length: 300 }, (_, i) => send(`http://127.0.0.1:${port}/v1.1/customer/${i}`)),
  );
  const gauges = async () => {
    const samples = parseExposition((await send(`http://127.0.0.1:${admin}/metrics`)).body.toString());
    return {
      active: valueOf(samples, 'sfd_upstream_connections', { state: 'active' }),
      waiting: valueOf(samples, 'sfd_upstream_waiting_requests', {}),
    };
  };
  t.true(await eventually(async () => (await gauges()).waiting === 44, 30_000), JSON.stringify(await gauges()));
  t.deepEqual(await gauges(), { active: 256, waiting: 44 });
  t.is(gateway.held(), 256, 'the gateway holds one request per connection');
  t.is(gateway.stats.most, 256);
  gateway.release();
  t.deepEqual(new Set((await answers).map((a) => a.status)), new Set([200]));
  t.is(gateway.stats.total, 256, 'the 44 beyond waited for a connection and reused it');
});
