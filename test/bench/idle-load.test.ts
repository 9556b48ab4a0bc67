// The bench's idle row: the probe and scrape load it applies is the pod's own (the periods injection writes,
// the chart's scrape interval), it reaches the admin listeners of the sidecar as shipped and of the stack
// floor, and it reads CPU time and main-thread wake-ups of the process it loads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { IDLE_LOAD_PERIODS, measureIdle } from '../../bench/idle-load.js';
import { mainThreadSwitches, processCpuMs } from '../../bench/proc-stats.js';
import { injectPod } from '../../src/injection/pipeline/inject-pod.js';
import { DEFAULTS, pod, sidecarOf } from '../helpers/injection.js';
import { REPO_ROOT } from '../helpers/tools.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import { freePort, waitForPort } from '../../bench/net-utils.js';

const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));

/** The stack floor as the bench starts it for the idle row, with its admin listener. */
async function startStack(t: ExecutionContext): Promise<{ pid: number; adminPort: number }> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [join(BENCH_DIR, 'stack-proxy.js'), String(port), '9', String(adminPort)], {
    stdio: 'ignore',
  });
  t.teardown(() => void child.kill('SIGKILL'));
  await waitForPort(adminPort);
  return { pid: child.pid!, adminPort };
}

test("the idle row's probe periods are the injected probes', its scrape the chart's interval", (t) => {
  const result = injectPod(pod(), DEFAULTS, 'every-workload');
  if (result.outcome !== 'injected') return t.fail(result.outcome);
  const sidecar = sidecarOf(result.template)!;
  t.is(sidecar.readinessProbe?.periodSeconds, IDLE_LOAD_PERIODS.readiness);
  t.is(sidecar.livenessProbe?.periodSeconds, IDLE_LOAD_PERIODS.liveness);
  const values = readFileSync(join(REPO_ROOT, 'helm/sfd-sidecar/values.yaml'), 'utf8');
  t.regex(values, new RegExp(`^\\s+interval: ${IDLE_LOAD_PERIODS.scrape}s$`, 'm'));
});

test('the idle row loads the admin listener of the stack floor and reads its CPU and wake-ups', async (t) => {
  const { pid, adminPort } = await startStack(t);
  t.true(processCpuMs(pid)! > 0);
  t.true(mainThreadSwitches(pid)! > 0);
  const [idle] = await measureIdle([{ pid, admin: `http://127.0.0.1:${adminPort}` }], 2, 0);
  t.truthy(idle);
  t.true(idle!.requests >= 3, 'readiness, liveness and a scrape at the start');
  t.is(idle!.failed, 0);
  t.true(idle!.cpuMs >= 0 && idle!.wakeupsPerSecond >= 0);
  t.true(idle!.rssMb > idle!.anonymousMb && idle!.anonymousMb > 0);
});

test('a process that is gone has no idle figures', async (t) => {
  const [idle] = await measureIdle([{ pid: 2 ** 22 + 1, admin: 'http://127.0.0.1:9' }], 1, 0);
  t.is(idle, null);
});
