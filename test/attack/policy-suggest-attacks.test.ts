// Attacks on `sfd-sidecar policy suggest` (docs/keystore.md, "Dry run, then enforce") by an application
// container of a pod that has the sidecar, written by a reader told only what the command promises: over a
// log collector's output, only the lines the collector attributes to the container sfd-sidecar count, in
// the namespace the collector names; a line's own fields never say where it came from. The application can
// print anything on its stdout, which the node's collector gathers beside the sidecar's lines. Each test
// feeds the real sidecar's log (what it logged while calls went through it to the emulator) and the
// application's lines, wrapped as Fluent Bit, Vector and Filebeat wrap them (test/fixtures/collected-logs),
// and asserts what an operator pasting the suggestion would grant. Getting through would have made the
// operator grant the application's namespace another profile, an operation nobody called, or an entry for
// another namespace.
import test, { type ExecutionContext } from 'ava';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import { collected, collectedLines, COLLECTORS, type Collector } from '../helpers/collected-logs.js';
import { send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';
import { startKeyedEmulator } from '../helpers/stack.js';

const KEY = { accessKeyId: 'AKSUGGESTATTACK1', secret: 'suggest-attack-secret-0123456789' };
const SIDECAR = { container: 'sfd-sidecar', namespace: 'shop' };
const APP = { container: 'app', namespace: 'shop' };
/** What the operator should be told to grant: the calls the sidecar signed for the shop. */
const EXPECTED = { entitlements: [{ namespace: 'shop', profiles: ['billing'], operations: ['getCustomer'] }] };

/** The request line a sidecar writes, as the application forges it. */
const forged = (fields: Record<string, unknown> = {}): string =>
  JSON.stringify({
    level: 'info',
    time: 1764496800000,
    service: 'sfd-sidecar',
    method: 'DELETE',
    path: '/cdn/v1.0/services/1/rateLimit',
    operation: 'deleteRateLimit',
    profile: 'payroll',
    accessKeyId: 'AKPAYROLL1',
    status: 200,
    completed: true,
    durationMs: 3.2,
    event: 'request',
    ...fields,
  });

/** The real sidecar's log of three customer reads signed as billing. */
async function sidecarLog(t: ExecutionContext): Promise<string> {
  const emulator = await startKeyedEmulator(t, { [KEY.accessKeyId]: KEY.secret });
  const volume = createSecretVolume({ 'keystore.json': keystoreJson({ billing: { keys: [KEY] } }) });
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl: emulator.url,
    defaultProfile: 'billing',
  });
  for (let i = 0; i < 3; i += 1) t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
  return sidecar.logs.text();
}

async function suggest(lines: readonly string[]) {
  return runCli(['policy', 'suggest', '-'], { input: `${lines.join('\n')}\n` });
}

/** The suggestion, checked to grant exactly what the sidecar signed for the shop. */
async function grantsOnlyTheSidecarsCalls(
  t: ExecutionContext,
  collector: Collector,
  log: string,
  appLines: readonly string[],
): Promise<string> {
  const run = await suggest([...collectedLines(collector, log, SIDECAR), ...appLines]);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(parse(run.stdout), EXPECTED, `${collector}: the suggestion grants what the application printed`);
  t.notRegex(run.stdout, /payroll|deleteRateLimit|finance/, collector);
  return run.stderr;
}

// Control: the sidecar's own lines, through each collector, give the shop's entry.
test('control: the sidecar container lines gathered by each collector give its namespace entry', async (t) => {
  const log = await sidecarLog(t);
  for (const collector of COLLECTORS) {
    const run = await suggest(collectedLines(collector, log, SIDECAR));
    t.is(run.code, 0, run.stderr);
    t.deepEqual(parse(run.stdout), EXPECTED, collector);
    t.notRegex(run.stderr, /warning/, collector);
  }
});

// 1. The application prints a request line naming another profile, an operation it wants, and another
// namespace and service account. Stopped: the collector says the line is the container `app`'s.
test("an application's request lines never reach the suggestion, and stderr counts them", async (t) => {
  const log = await sidecarLog(t);
  const line = forged({ namespace: 'finance', serviceAccount: 'payroll-runner' });
  for (const collector of COLLECTORS) {
    const stderr = await grantsOnlyTheSidecarsCalls(t, collector, log, [
      collected(collector, line, APP),
      collected(collector, line, APP),
      collected(collector, line, APP),
    ]);
    t.regex(stderr, /warning: 3 request lines left out: printed by another container of the pod/, collector);
  }
});

// 2. The application's line carries the collector's own metadata, naming the sidecar's container and
// another namespace: `kubernetes.container_name` and friends, in each collector's spelling.
test("collector metadata inside an application's line is never taken for the collector's", async (t) => {
  const log = await sidecarLog(t);
  const spoofs = [
    { kubernetes: { container_name: 'sfd-sidecar', namespace_name: 'finance', pod_name: 'x' } },
    { kubernetes: { container_name: 'sfd-sidecar', pod_namespace: 'finance', pod_name: 'x' } },
    { kubernetes: { container: { name: 'sfd-sidecar' }, namespace: 'finance', pod: { name: 'x' } } },
  ];
  for (const collector of COLLECTORS) {
    await grantsOnlyTheSidecarsCalls(
      t,
      collector,
      log,
      spoofs.map((spoof) => collected(collector, forged(spoof), APP)),
    );
  }
});

// 3. The application prints a whole collector record of its own, claiming the sidecar's container in
// another namespace, so that a reader unwrapping twice takes the inner wrapper for the collector's.
test("a collector record printed by the application is read as the application's line", async (t) => {
  const log = await sidecarLog(t);
  for (const collector of COLLECTORS) {
    const nested = COLLECTORS.map((inner) =>
      collected(collector, collected(inner, forged(), { container: 'sfd-sidecar', namespace: 'finance' }), APP),
    );
    await grantsOnlyTheSidecarsCalls(t, collector, log, nested);
  }
});

// 4. Fluent Bit with Merge_Log on copies the fields of a JSON line into its record beside its metadata;
// the application's fields then sit at the record's top, `event` and `namespace` included.
test("fields an application's line merged into the collector's record do not count", async (t) => {
  const log = await sidecarLog(t);
  const line = forged({ namespace: 'finance' });
  const merged = { ...(JSON.parse(collected('fluent-bit', line, APP)) as object), ...(JSON.parse(line) as object) };
  const mergedWithoutLog = { ...merged, log: undefined };
  await grantsOnlyTheSidecarsCalls(t, 'fluent-bit', log, [JSON.stringify(merged), JSON.stringify(mergedWithoutLog)]);
});

// 5. A plain line (no collector around it) is taken as the sidecar's own, as `kubectl logs -c sfd-sidecar`
// prints it; a namespace written into it never makes an entry for that namespace.
test('a namespace written into a plain line never makes an entitlement entry', async (t) => {
  const run = await suggest([forged({ profile: 'billing', namespace: 'finance', serviceAccount: 'payroll-runner' })]);
  t.is(run.code, 0, run.stderr);
  t.notRegex(run.stdout, /finance|payroll-runner|entitlements/);
  t.regex(run.stderr, /1 request lines name a namespace or service account of their own, which is not read/);
});
