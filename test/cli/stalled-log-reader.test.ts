// A log collector that stops reading the sidecar's stdout (a container runtime's pipe left undrained)
// must not stop the sidecar: requests and /healthz go on being answered, and once the collector reads
// again every request line arrives, whole. With stdout left in blocking mode the sidecar answered a
// few hundred requests and then nothing at all.
import { readlinkSync } from 'node:fs';
import http from 'node:http';
import test, { type ExecutionContext } from 'ava';
import { MAIN, startCli, startProcess, type LongRunning } from '../helpers/cli-process.js';
import { send, type Answer } from '../helpers/http.js';
import { sleep } from '../helpers/keystore-stack.js';
import { TEST_SECRET } from '../helpers/secrets.js';

/** About 700 KB of request lines: ten times what a pipe holds. */
const REQUESTS = 2000;

function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} within ${ms} ms`)))]);
}

const keyEnv = { SFD_ACCESS_KEY_ID: 'AKLOGPIPE1', SFD_ACCESS_KEY_SECRET: TEST_SECRET };
type Launch = (env: Record<string, string>) => Promise<LongRunning>;

/** Node's child_process hands its child a socket as stdout. */
const underNode: Launch = (env) => startCli(['serve'], /"event":"listening"/, { env });
/**
 * A container runtime hands it a pipe (FIFO), which it drains: here `cat`, which stops when the test stops reading it.
 */
const underRuntime: Launch = (env) =>
  startProcess('bash', ['-c', 'exec "$0" "$1" serve > >(exec cat)', process.execPath, MAIN], /"event":"listening"/, {
    env,
  });

/** The emulator and a sidecar in front of it, launched as given; the sidecar's listening ports. */
async function startLoggedSidecar(
  t: ExecutionContext,
  launch: Launch,
): Promise<{ sidecar: LongRunning; signing: string; admin: string }> {
  const emulator = await startCli(['emulator', '--listen', '127.0.0.1:0'], /listening on (http:\/\/\S+):/, {
    env: keyEnv,
  });
  t.teardown(() => emulator.child.kill('SIGKILL'));
  const upstream = /listening on (http:\/\/\S+):/.exec(emulator.stderr())![1]!;
  const sidecar = await launch({
    ...keyEnv,
    SFD_LISTEN: '127.0.0.1:0',
    SFD_ADMIN_LISTEN: '127.0.0.1:0',
    SFD_UPSTREAM_URL: upstream,
  });
  t.teardown(() => sidecar.child.kill('SIGKILL'));
  const signing = /"signing":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  const admin = /"admin":"127\.0\.0\.1:(\d+)"/.exec(sidecar.stdout())![1]!;
  return { sidecar, signing, admin };
}

/**
 * REQUESTS signed requests through the sidecar, 8 connections at a time; fails when they are not all answered in 20 s.
 */
async function sendAll(signing: string): Promise<Answer[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  try {
    return await within(
      20_000,
      Promise.all(
        Array.from({ length: REQUESTS }, () => send(`http://127.0.0.1:${signing}/v1.1/customer/12345`, { agent })),
      ),
      'the signing listener did not answer every request',
    );
  } finally {
    agent.destroy();
  }
}

const requestLines = (sidecar: LongRunning): string[] =>
  sidecar
    .stdout()
    .split('\n')
    .filter((line) => line.includes('"event":"request"'));

async function keepsAnswering(t: ExecutionContext, launch: Launch, stdoutKind: 'socket' | 'pipe'): Promise<void> {
  const { sidecar, signing, admin } = await startLoggedSidecar(t, launch);
  t.regex(
    readlinkSync(`/proc/${sidecar.child.pid}/fd/1`),
    new RegExp(`^${stdoutKind}:`),
    `the sidecar's stdout is a ${stdoutKind}`,
  );

  // The collector stops reading.
  sidecar.child.stdout!.pause();
  const answers = await sendAll(signing);
  t.deepEqual([...new Set(answers.map((answer) => answer.status))], [200]);
  t.is((await within(5000, send(`http://127.0.0.1:${admin}/healthz`), '/healthz did not answer')).status, 200);
  const metrics = (
    await within(5000, send(`http://127.0.0.1:${admin}/metrics`), '/metrics did not answer')
  ).body.toString();
  t.regex(metrics, /^sfd_log_lines_dropped_total 0$/m, 'nothing dropped: 700 KB is far below the 16 MiB that may wait');
  // The pipe really was full: most request lines had not reached the reader.
  t.true(
    requestLines(sidecar).length < REQUESTS / 2,
    `${requestLines(sidecar).length} request lines were read while the reader was stopped`,
  );

  sidecar.child.stdout!.resume();
  for (let waited = 0; requestLines(sidecar).length < REQUESTS && waited < 15_000; waited += 100) await sleep(100);
  const lines = requestLines(sidecar);
  t.is(lines.length, REQUESTS);
  t.true(
    lines.every((line) => (JSON.parse(line) as { status?: unknown }).status === 200),
    'every line whole',
  );
  sidecar.child.kill('SIGTERM');
  t.is(await sidecar.exited, 0);
}

test(
  'with its stdout socket unread (a Node parent), the sidecar keeps answering; the lines all arrive once it is ' +
    'read again',
  keepsAnswering,
  underNode,
  'socket',
);
test(
  'with its stdout pipe unread (a container runtime), the sidecar keeps answering; the lines all arrive once ' +
    'it is read again',
  keepsAnswering,
  underRuntime,
  'pipe',
);

test(
  'stopped while its log pipe is full, the sidecar waits ' + 'for the reader to take its last lines before it exits',
  async (t) => {
    const { sidecar, signing } = await startLoggedSidecar(t, underNode);
    sidecar.child.stdout!.pause();
    const answers = await sendAll(signing);
    t.is(answers.length, REQUESTS);
    // Stopped with the pipe full; the reader comes back a little later.
    sidecar.child.kill('SIGTERM');
    await sleep(300);
    t.false(sidecar.stdout().includes('"event":"stopped"'), 'the last lines were still waiting');
    sidecar.child.stdout!.resume();
    t.is(await within(10_000, sidecar.exited, 'the sidecar did not exit'), 0);
    t.is(requestLines(sidecar).length, REQUESTS);
    t.true(
      sidecar
        .stdout()
        .split('\n')
        .some((line) => line.includes('"event":"stopped"')),
    );
  },
);
