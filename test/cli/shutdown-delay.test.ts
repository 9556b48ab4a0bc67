// SFD_SHUTDOWN_DELAY_MS: a sidecar that gets SIGTERM together with its application (the chart's
// classic mode) goes on serving the application's last calls, new connections included, for the
// delay; /readyz says it is shutting down; then it drains as without the delay and exits 0.
import test from 'ava';
import { startCli } from '../helpers/cli-process.js';
import { send } from '../helpers/http.js';
import { startHeldUpstream } from '../helpers/slow-upstream.js';
import { eventually } from '../helpers/time.js';

const DELAY_MS = 2000;

test(
  'after SIGTERM the sidecar serves new connections ' + 'for SFD_SHUTDOWN_DELAY_MS, then drains and exits 0',
  async (t) => {
    const upstream = await startHeldUpstream(t);
    const sidecar = await startCli(['serve'], /"event":"listening"/, {
      env: {
        SFD_LISTEN: '127.0.0.1:0',
        SFD_ADMIN_LISTEN: '127.0.0.1:0',
        SFD_UPSTREAM_URL: upstream.url,
        SFD_ACCESS_KEY_ID: 'AKDELAY',
        SFD_ACCESS_KEY_SECRET: 'shutdown-delay-test-secret-77c1',
        SFD_SHUTDOWN_DELAY_MS: String(DELAY_MS),
        SFD_SHUTDOWN_TIMEOUT_MS: '5000',
      },
    });
    t.teardown(() => sidecar.child.kill('SIGKILL'));
    const port = /"signing":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
    const adminPort = /"admin":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
    const signalled = Date.now();
    sidecar.child.kill('SIGTERM');

    t.true(await eventually(() => sidecar.stdout().includes('"event":"shutting down"')));
    // Calls the application makes while it shuts down: new connections, answered as usual, and still
    // in flight when the delay ends (the upstream holds them), so the drain lets them finish.
    const early = send(`http://127.0.0.1:${port}/v1.1/customer/early`);
    const readiness = await send(`http://127.0.0.1:${adminPort}/readyz`);
    t.is(readiness.status, 503);
    t.deepEqual(readiness.json<{ reasons: string[] }>().reasons, ['shutting down']);
    const late = send(`http://127.0.0.1:${port}/v1.1/customer/late`);
    t.true(await eventually(() => upstream.held() === 2), 'both reached the gateway during the delay');

    t.true(await eventually(() => sidecar.stdout().includes('"event":"draining"'), DELAY_MS + 5000));
    t.true(Date.now() - signalled >= DELAY_MS, 'the drain starts after the delay');
    await t.throwsAsync(send(`http://127.0.0.1:${port}/after-the-delay`), { code: 'ECONNREFUSED' });
    upstream.release();
    t.deepEqual([(await early).status, (await late).status], [200, 200]);
    t.is(await sidecar.exited, 0);
    t.regex(sidecar.stdout(), /"delayMs":2000,"drainMs":5000,"event":"shutting down"/);
  },
);
