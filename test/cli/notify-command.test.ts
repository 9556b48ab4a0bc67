// `sfd-sidecar notify` sends one well-formed event, as the service would, to a running relay.
import test from 'ava';
import { startCli, runCli } from '../helpers/cli-process.js';
import { REFUSING_ADDRESS } from '../helpers/faulty-upstream.js';
import { startTestApp } from '../helpers/test-app.js';

test('notify sends a valid event through a running sidecar relay to the app', async (t) => {
  const app = await startTestApp(t);
  const sidecar = await startCli(['serve'], /"event":"notification relay listening"/, {
    env: {
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_NOTIFY_LISTEN: '127.0.0.1:0',
      SFD_NOTIFY_FORWARD_URL: app.url,
    },
  });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const relayPort = /"address":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())?.[1];
  t.truthy(relayPort);
  for (const status of ['started', 'ended', 'error']) {
    const run = await runCli([
      'notify',
      '--url',
      `http://127.0.0.1:${relayPort}/notifications`,
      '--status',
      status,
      '--recording-id',
      'rec-cli',
      '--stream-id',
      'cam-1',
    ]);
    t.is(run.code, 0, run.stderr);
    t.regex(run.stderr, / answered 200/);
  }
  const stream = await runCli([
    'notify',
    '--url',
    `http://127.0.0.1:${relayPort}/notifications`,
    '--status',
    'started',
    '--type',
    'stream-status',
  ]);
  t.is(stream.code, 0, stream.stderr);
  t.is(app.received.length, 4);
  t.deepEqual(
    app.received.slice(0, 3).map((r) => (JSON.parse(r.body.toString()) as { data: { status: string } }).data.status),
    ['started', 'ended', 'error'],
  );
  sidecar.child.kill('SIGTERM');
  t.is(await sidecar.exited, 0);
});

test('notify refuses bad arguments and reports an unreachable URL', async (t) => {
  const bad = await runCli(['notify', '--url', 'nope', '--status', 'finished']);
  t.is(bad.code, 2);
  t.true(bad.stderr.includes('--url') && bad.stderr.includes('--status'));
  const { port } = REFUSING_ADDRESS;
  const down = await runCli(['notify', '--url', `http://127.0.0.1:${port}/notifications`, '--status', 'started']);
  t.is(down.code, 1);
  t.regex(down.stderr, /no answer from .*ECONNREFUSED/);
});
