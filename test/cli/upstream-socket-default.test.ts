// The default bound on upstream connections, as a user who sets nothing gets it: a sidecar process
// in front of a gateway that takes 1 s to answer holds at most 256 connections to it at once, and the
// requests beyond wait for one and are still answered. 1 s, not less: with the rest of the suite on
// both cores, 300 ms once let only 181 requests arrive before the first answers freed connections.
import test from 'ava';
import { startCli } from '../helpers/cli-process.js';
import { send } from '../helpers/http.js';
import { TEST_SECRET } from '../helpers/secrets.js';
import { startSlowUpstream } from '../helpers/slow-upstream.js';

test(
  'with SFD_UPSTREAM_MAX_SOCKETS unset, 300 requests at ' + 'once use 256 upstream connections and all are answered',
  async (t) => {
    const gateway = await startSlowUpstream(t, 1000);
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
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => send(`http://127.0.0.1:${port}/v1.1/customer/${i}`)),
    );
    t.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
    t.is(gateway.stats.most, 256);
    t.is(gateway.stats.total, 256, 'the 44 beyond waited for a connection and reused it');
  },
);
