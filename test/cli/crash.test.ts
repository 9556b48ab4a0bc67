// A bug that escapes every handler: the sidecar logs one structured line, keeps the stack on stderr,
// loses none of the request log lines written before it, and exits 1 so that the pod restarts it.
import test from 'ava';
import { startCli } from '../helpers/cli-process.js';
import { send } from '../helpers/http.js';
import { TEST_SECRET } from '../helpers/secrets.js';

const preload = new URL('../helpers/throw-on-sigusr2.js', import.meta.url).href;

test('an uncaught exception ends the sidecar with a "crashed" log line, its stack on stderr and exit 1', async (t) => {
  const sidecar = await startCli(['serve'], /"event":"listening"/, {
    env: {
      NODE_OPTIONS: `--import=${preload}`,
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: 'http://127.0.0.1:9',
      SFD_ACCESS_KEY_ID: 'AKCRASH1',
      SFD_ACCESS_KEY_SECRET: TEST_SECRET,
    },
  });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const port = /"signing":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  // Nothing listens on port 9: the request is answered 502 by the sidecar and logged (in a buffer).
  t.is((await send(`http://127.0.0.1:${port}/v1.1/customer/1`)).status, 502);

  sidecar.child.kill('SIGUSR2');
  t.is(await sidecar.exited, 1);

  const lines = sidecar
    .stdout()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  t.true(
    lines.some((line) => line.event === 'request' && line.status === 502),
    'the request line buffered before the crash is written',
  );
  t.like(lines.at(-1), { event: 'crashed', level: 'fatal', errorCode: 'Error', errorMessage: 'a bug nobody caught' });
  t.regex(sidecar.stderr(), /sfd-sidecar: crashed: Error: a bug nobody caught\n\s+at /);
  t.false(sidecar.stdout().includes(TEST_SECRET) || sidecar.stderr().includes(TEST_SECRET));
});
