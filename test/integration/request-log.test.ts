// SFD_REQUEST_LOG: every request gets its log line by default; with `failed` only the ones
// an operator has to look at (no answer, an error status from the gateway or the sidecar, cut off,
// re-signed), with `off` none; the metrics count every request either way.
import { setTimeout as sleep } from 'node:timers/promises';
import test, { type ExecutionContext } from 'ava';
import type { RequestLogMode } from '../../src/config/settings.js';
import { send } from '../helpers/http.js';
import { startStack, type Stack } from '../helpers/stack.js';

/** A read the gateway answers 200, a path it refuses (400 URI.Invalid), and a body the sidecar refuses with 413. */
async function sendThree(stack: Stack): Promise<number[]> {
  const answers = [
    await send(`${stack.proxyUrl}/v1.1/customer/12345`),
    await send(`${stack.proxyUrl}/v9/nothing-here`),
    await send(`${stack.proxyUrl}/v1.1/customer`, { method: 'POST', body: 'x'.repeat(2048) }),
  ];
  return answers.map((a) => a.status);
}

/** Waits until the metrics have counted `count` finished requests: their log decision is made by then. */
async function waitForCounted(stack: Stack, count: number): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const metrics = (await send(`${stack.adminUrl}/metrics`)).body.toString();
    const counted = [...metrics.matchAll(/^sfd_requests_total\{[^}]*\} (\d+)$/gm)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
    if (counted >= count || Date.now() > deadline) return;
    await sleep(20);
  }
}

async function requestLines(t: ExecutionContext, mode: RequestLogMode): Promise<Record<string, unknown>[]> {
  const stack = await startStack(t, { sidecar: { requestLog: mode, maxBodyBytes: 1024 } });
  t.deepEqual(await sendThree(stack), [200, 400, 413]);
  await waitForCounted(stack, 3);
  const metrics = (await send(`${stack.adminUrl}/metrics`)).body.toString();
  for (const status of ['200', '400', '413'])
    t.regex(
      metrics,
      new RegExp(`^sfd_requests_total\\{[^}]*status="${status}"[^}]*\\} 1$`, 'm'),
      `status ${status} counted`,
    );
  return stack.logs.lines().filter((line) => line.event === 'request');
}

test("failed: the gateway's 400 and the sidecar's 413 are logged, the 200 is not", async (t) => {
  const lines = await requestLines(t, 'failed');
  t.deepEqual(
    lines.map((line) => line.status),
    [400, 413],
  );
  t.like(lines[1], { errorCode: 'Sidecar.BodyTooLarge', method: 'POST' });
});

test('off: no request line at all, while the metrics count every request', async (t) => {
  t.deepEqual(await requestLines(t, 'off'), []);
});

test('all (the default): one line per request', async (t) => {
  const lines = await requestLines(t, 'all');
  t.deepEqual(
    lines.map((line) => line.status),
    [200, 400, 413],
  );
});
