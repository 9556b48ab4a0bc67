// `npm run start:shipped` runs the sidecar as the container image does, for load tests of one's own:
// production mode (no demo), the Dockerfile's NODE_OPTIONS and Node flags, and one process (the shell
// execs it) that SIGTERM reaches. The script's text after its build step is run here as npm runs it.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { shippedNodeFlags, shippedNodeOptions } from '../../bench/shipped-node-options.js';
import { MAIN, runProcess, startCli, startProcess } from '../helpers/cli-process.js';
import { send } from '../helpers/http.js';
import { TEST_SECRET } from '../helpers/secrets.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const script = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts[
  'start:shipped'
]!;
const BUILD = 'npm run build && ';
const loopbackPorts = { SFD_LISTEN: '127.0.0.1:0', SFD_ADMIN_LISTEN: '127.0.0.1:0' };

test(
  'the script builds first, then runs the printed ' + 'command in place of the shell, and only if it was ' + 'printed',
  (t) => {
    t.true(script.startsWith(BUILD));
    t.is(script.slice(BUILD.length), 'command=$(node dist/bench/shipped-command.js) && eval "exec $command"');
  },
);

test(
  'when the command cannot be worked out (no Dockerfile), ' + 'the script fails with the reason instead of exiting 0',
  async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'sfd-no-dockerfile-'));
    mkdirSync(join(root, 'dist/bench'), { recursive: true });
    for (const file of ['shipped-command.js', 'shipped-node-options.js'])
      copyFileSync(join(ROOT, 'dist/bench', file), join(root, 'dist/bench', file));
    const finished = await runProcess('sh', ['-c', script.slice(BUILD.length)], { cwd: root });
    t.not(finished.code, 0);
    t.regex(finished.stderr, /ENOENT: no such file or directory, open '.*\/Dockerfile'/);
  },
);

test('with nothing configured it refuses to start instead of running the demo', async (t) => {
  const finished = await runProcess('sh', ['-c', script.slice(BUILD.length)], { cwd: ROOT, env: loopbackPorts });
  t.is(finished.code, 2);
  t.regex(finished.stderr, /SFD_UPSTREAM_URL: required \(NODE_ENV=production never falls back to the demo\)/);
  t.false(finished.stderr.includes('Demo mode'));
});

test(
  'configured by environment it signs for the upstream, with the image flags and options, and ends cleanly on ' +
    'SIGTERM',
  async (t) => {
    const emulator = await startCli(['emulator', '--listen', '127.0.0.1:0'], /listening on (http:\/\/\S+):/, {
      env: { SFD_ACCESS_KEY_ID: 'AKSHIPPED1', SFD_ACCESS_KEY_SECRET: TEST_SECRET },
    });
    t.teardown(() => emulator.child.kill('SIGKILL'));
    const upstream = /listening on (http:\/\/\S+):/.exec(emulator.stderr())![1]!;
    const sidecar = await startProcess('sh', ['-c', script.slice(BUILD.length)], /"event":"listening"/, {
      cwd: ROOT,
      env: {
        ...loopbackPorts,
        SFD_UPSTREAM_URL: upstream,
        SFD_ACCESS_KEY_ID: 'AKSHIPPED1',
        SFD_ACCESS_KEY_SECRET: TEST_SECRET,
      },
    });
    t.teardown(() => sidecar.child.kill('SIGKILL'));

    // The shell is gone: the process npm started is the sidecar itself.
    const pid = sidecar.child.pid!;
    t.deepEqual(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1), [
      process.execPath,
      ...shippedNodeFlags(ROOT),
      MAIN,
      'serve',
    ]);
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    t.true(environment.includes('NODE_ENV=production'));
    t.true(environment.includes(`NODE_OPTIONS=${shippedNodeOptions(ROOT)}`));

    const port = /"signing":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
    const answer = await send(`http://127.0.0.1:${port}/v1.1/customer/12345`);
    t.is(answer.status, 200);
    t.like(answer.json(), { id: 12345 });

    sidecar.child.kill('SIGTERM');
    t.is(await sidecar.exited, 0);
    t.false(sidecar.stdout().includes(TEST_SECRET) || sidecar.stderr().includes(TEST_SECRET));
  },
);
