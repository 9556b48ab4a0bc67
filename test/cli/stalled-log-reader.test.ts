// A log collector that stops reading the sidecar's stdout (a container runtime's pipe left undrained)
// must not stop the sidecar: requests and /healthz go on being answered, and once the collector reads
// again every request line arrives, whole. With stdout left in blocking mode the sidecar answered a
// few hundred requests and then nothing at all.
import { readlinkSync } from 'node:fs';
import http from 'node:http';
import test, { type ExecutionContext } from 'ava';
import { MAIN, startCli, startProcess, type LongRunning } from '../helpers/cli-process.js';
import { connectionRefused, send, type Answer } from '../helpers/http.js';
import { eventually } from '../helpers/time.js';
import { TEST_SECRET } from '../helpers/secrets.js';

/** About 700 KB of request lines: ten times what a pipe holds. */
const REQUESTS = 2000;

/**
 * These tests wait on events only (answers, lines, exit), never on a deadline of their own: a machine
 * under load makes them slower, not wrong. A sidecar that stops answering fails them at this timeout.
 */
const TEST_TIMEOUT_MS = 120_000;

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

/** REQUESTS signed requests through the sidecar, 8 connections at a time. */
async function sendAll(signing: string): Promise<Answer[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  try {
    return await Promise.all(
      Array.from({ length: REQUESTS }, () => send(`http://127.0.0.1:${signing}/v1.1/customer/12345`, { agent })),
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
  t.timeout(TEST_TIMEOUT_MS);
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
  t.is((await send(`http://127.0.0.1:${admin}/healthz`)).status, 200);
  const metrics = (await send(`http://127.0.0.1:${admin}/metrics`)).body.toString();
  t.regex(metrics, /^sfd_log_lines_dropped_total 0$/m, 'nothing dropped: 700 KB is far below the 16 MiB that may wait');
  // The pipe really was full: most request lines had not reached the reader.
  t.true(
    requestLines(sidecar).length < REQUESTS / 2,
    `${requestLines(sidecar).length} request lines were read while the reader was stopped`,
  );

  sidecar.child.stdout!.resume();
  await eventually(() => requestLines(sidecar).length >= REQUESTS, TEST_TIMEOUT_MS);
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
    t.timeout(TEST_TIMEOUT_MS);
    const { sidecar, signing } = await startLoggedSidecar(t, underNode);
    sidecar.child.stdout!.pause();
    const answers = await sendAll(signing);
    t.is(answers.length, REQUESTS);
    // Stopped with the pipe full: once its listener is closed it has drained, and while it has not
    // exited it is waiting for the reader, which then comes back.
    sidecar.child.kill('SIGTERM');
    // A bare connection, never a request: a request would add a line of its own.
    t.true(await eventually(() => connectionRefused(Number(signing)), TEST_TIMEOUT_MS), 'the listener closed');
    t.is(sidecar.child.exitCode, null, 'it waits for the reader');
    t.false(sidecar.stdout().includes('"event":"stopped"'), 'the last lines were still waiting');
    sidecar.child.stdout!.resume();
    t.is(await sidecar.exited, 0);
    t.is(requestLines(sidecar).length, REQUESTS);
    t.true(
      sidecar
        .stdout()
        .split('\n')
        .some((line) => line.includes('"event":"stopped"')),
    );
  },
);
