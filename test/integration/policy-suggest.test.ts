// `policy suggest` over what a real sidecar logged while an application made its calls through it: the
// YAML it prints is the one a person would write by hand for that traffic, and pasted into the key store
// it lets the same calls through and refuses the ones the application never made.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import { collected, collectedLines, COLLECTORS } from '../helpers/collected-logs.js';
import { send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { startKeyedEmulator } from '../helpers/stack.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';

const KEY = { accessKeyId: 'AKSUGGEST1', secret: 'suggest-secret-0123456789' };
const dir = mkdtempSync(join(tmpdir(), 'sfd-suggest-'));

/** What the application did: its calls, each with the status it expects. */
const TRAFFIC: readonly { method: string; path: string; body?: string; times?: number }[] = [
  { method: 'GET', path: '/v1.1/customer/12345', times: 3 },
  { method: 'GET', path: '/v1.2/customerChildren/12345' },
  { method: 'GET', path: '/cdn/v1.0/services/1001/rateLimit' },
  { method: 'GET', path: '/_emulator/echo/reports/2024', times: 2 },
  { method: 'GET', path: '/_emulator/echo/reports/2025' },
  { method: 'HEAD', path: '/_emulator/echo/reports/2026' },
  { method: 'POST', path: '/_emulator/echo/jobs', body: '{"kind":"export"}' },
];
/** Calls the gateway refused (an account the key does not own), which grant nothing. */
const REFUSED = [{ method: 'DELETE', path: '/cdn/v1.0/services/2001/rateLimit' }];

async function sidecar(t: ExecutionContext, upstreamUrl: string, operations?: unknown) {
  const volume = createSecretVolume({
    'keystore.json': keystoreJson({ billing: { keys: [KEY], ...(operations ? { operations } : {}) } }),
  });
  return startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl,
    defaultProfile: 'billing',
  });
}

async function replay(
  proxyUrl: string,
  calls: readonly { method: string; path: string; body?: string; times?: number }[],
) {
  const statuses: number[] = [];
  for (const call of calls)
    for (let i = 0; i < (call.times ?? 1); i += 1)
      statuses.push((await send(`${proxyUrl}${call.path}`, { method: call.method, body: call.body })).status);
  return statuses;
}

const EXPECTED = `# Each profile's operations for the key store, from the calls seen: 5 operations
profiles:
  billing:
    operations:
      - getCustomer # 3 calls
      - getCustomerChildren # 1 call
      - getRateLimit # 1 call
      - { methods: [ GET ], paths: [ /_emulator/echo/reports/* ] } # 4 calls
      - { methods: [ POST ], paths: [ /_emulator/echo/jobs ] } # 1 call
`;

test('policy suggest turns a recorded request log into the operations its traffic needs, no more', async (t) => {
  const emulator = await startKeyedEmulator(t, { [KEY.accessKeyId]: KEY.secret });
  const open = await sidecar(t, emulator.url);
  t.deepEqual(new Set(await replay(open.proxyUrl, TRAFFIC)), new Set([200]));
  t.true((await replay(open.proxyUrl, REFUSED)).every((status) => status >= 400));
  const log = join(dir, 'sidecar.log');
  writeFileSync(log, open.logs.text());

  const run = await runCli(['policy', 'suggest', log]);
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, EXPECTED);
  t.regex(run.stderr, /11 calls read from .*sidecar\.log, \d+ lines skipped \(not a request's record\)/);

  const suggested = parse(run.stdout) as { profiles: { billing: { operations: unknown[] } } };
  const limited = await sidecar(t, emulator.url, suggested.profiles.billing.operations);
  t.deepEqual(new Set(await replay(limited.proxyUrl, TRAFFIC)), new Set([200]), 'the same traffic goes through');
  const outside = await replay(limited.proxyUrl, [
    ...REFUSED,
    { method: 'POST', path: '/cdn/v1.0/services/1001/rateLimit', body: '{}' },
    { method: 'GET', path: '/_emulator/echo/reports/2024/summary' },
    { method: 'DELETE', path: '/_emulator/echo/jobs' },
  ]);
  t.deepEqual(outside, [403, 403, 403, 403], 'what the application never did is refused');
});

test('lines a collector wrapped with a namespace give entitlement entries; series name operations', async (t) => {
  const emulator = await startKeyedEmulator(t, { [KEY.accessKeyId]: KEY.secret });
  const open = await sidecar(t, emulator.url);
  await replay(open.proxyUrl, TRAFFIC);
  // As Fluent Bit's tail input and Kubernetes filter write them: the runtime's line under `log`.
  const log = join(dir, 'collected.log');
  const sidecarIn = (namespace: string) => ({ container: 'sfd-sidecar', namespace });
  writeFileSync(log, `${collectedLines('fluent-bit', open.logs.text(), sidecarIn('shop')).join('\n')}\n`);
  const fromLog = await runCli(['policy', 'suggest', log]);
  t.is(fromLog.code, 0, fromLog.stderr);
  const entries = (parse(fromLog.stdout) as { entitlements: unknown[] }).entitlements;
  t.is(entries.length, 1);
  t.like(entries[0], { namespace: 'shop', profiles: ['billing'] });
  t.deepEqual((entries[0] as { operations: unknown[] }).operations.slice(0, 3), [
    'getCustomer',
    'getCustomerChildren',
    'getRateLimit',
  ]);

  // As Vector's kubernetes_logs source and Filebeat write them: the line under `message`.
  for (const [collector, namespace] of [
    ['vector', 'pay'],
    ['filebeat', 'ledger'],
  ] as const) {
    const file = join(dir, `${collector}.log`);
    writeFileSync(file, collectedLines(collector, open.logs.text(), sidecarIn(namespace)).join('\n'));
    const run = await runCli(['policy', 'suggest', file]);
    t.is(run.code, 0, run.stderr);
    t.like((parse(run.stdout) as { entitlements: unknown[] }).entitlements[0], { namespace, profiles: ['billing'] });
  }

  const metrics = join(dir, 'metrics.txt');
  writeFileSync(metrics, (await send(`${open.adminUrl}/metrics`)).body);
  const fromSeries = await runCli(['policy', 'suggest', '--from', 'metrics', metrics]);
  t.is(fromSeries.code, 0, fromSeries.stderr);
  t.deepEqual((parse(fromSeries.stdout) as { profiles: { billing: { operations: unknown[] } } }).profiles.billing, {
    operations: ['getCustomer', 'getCustomerChildren', 'getRateLimit'],
  });
  t.regex(fromSeries.stderr, /warning: profile billing: 5 calls of operation other, which only their paths can grant/);
});

test('policy suggest refuses what it cannot read, with a usage line or the reason, never a stack', async (t) => {
  const missing = await runCli(['policy', 'suggest', join(dir, 'absent.log')]);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /^sfd-sidecar policy: .*absent\.log: /);
  t.notRegex(missing.stderr, /\n\s+at /);
  const usage = await runCli(['policy', 'suggest', '--from', 'traces', 'x']);
  t.is(usage.code, 2);
  t.regex(usage.stderr, /^usage: sfd-sidecar policy suggest/);
  const nothing = await runCli(['policy', 'suggest', '-'], { input: 'not a log\n{"event":"started"}\n' });
  t.is(nothing.code, 1);
  t.regex(nothing.stderr, /0 calls read from stdin, 2 lines skipped/);
  t.regex(nothing.stderr, /nothing to suggest/);
});

test("only the sidecar's lines count, in the namespace the collector names; what is left out is said", async (t) => {
  const emulator = await startKeyedEmulator(t, { [KEY.accessKeyId]: KEY.secret });
  const open = await sidecar(t, emulator.url);
  await replay(open.proxyUrl, TRAFFIC.slice(0, 1));
  // What an application container of the same pod prints: a line shaped as the sidecar's, naming another
  // profile, a call the sidecar never made, and a namespace and service account of its own choosing.
  const printed = JSON.stringify({
    level: 'info',
    service: 'sfd-sidecar',
    method: 'DELETE',
    path: '/cdn/v1.0/services/1/rateLimit',
    operation: 'deleteRateLimit',
    profile: 'payroll',
    accessKeyId: 'AKPAYROLL',
    namespace: 'finance',
    serviceAccount: 'payroll-runner',
    status: 200,
    event: 'request',
  });
  for (const collector of COLLECTORS) {
    const lines = [
      ...collectedLines(collector, open.logs.text(), { container: 'sfd-sidecar', namespace: 'shop' }),
      collected(collector, printed, { container: 'app', namespace: 'shop' }),
      collected(collector, printed, { container: 'app', namespace: 'shop' }),
    ];
    const run = await runCli(['policy', 'suggest', '-'], { input: `${lines.join('\n')}\n` });
    t.is(run.code, 0, run.stderr);
    t.deepEqual(
      parse(run.stdout),
      { entitlements: [{ namespace: 'shop', profiles: ['billing'], operations: ['getCustomer'] }] },
      collector,
    );
    t.regex(run.stderr, /warning: 2 request lines left out: printed by another container of the pod/, collector);
  }

  // Plain lines are the sidecar's own (kubectl logs -c sfd-sidecar): a namespace in them is not read.
  const own = JSON.stringify({ ...(JSON.parse(printed) as object), profile: 'billing' });
  const plain = await runCli(['policy', 'suggest', '-'], { input: `${own}\n` });
  t.is(plain.code, 0, plain.stderr);
  t.deepEqual(parse(plain.stdout), { profiles: { billing: { operations: ['deleteRateLimit'] } } });
  t.regex(plain.stderr, /1 request lines name a namespace or service account of their own, which is not read/);

  // A collector's record that names no container, and a call answered without being signed.
  const unnamed = JSON.stringify({ log: `${own}\n`, stream: 'stdout', kubernetes: { namespace_name: 'shop' } });
  const unsigned = JSON.stringify({ ...(JSON.parse(own) as object), accessKeyId: undefined });
  // Fluent Bit with Merge_Log on and Keep_Log off: the line's fields beside the collector's, the line gone.
  const wrapped = JSON.parse(collected('fluent-bit', own, { container: 'sfd-sidecar', namespace: 'shop' })) as object;
  const merged = JSON.stringify({ ...wrapped, log: undefined, ...(JSON.parse(own) as object) });
  const left = await runCli(['policy', 'suggest', '-'], { input: `${unnamed}\n${unsigned}\n${merged}\n` });
  t.is(left.code, 1);
  t.regex(left.stderr, /1 request lines left out: wrapped by a log collector that names no container/);
  t.regex(left.stderr, /1 request lines left out: answered below 400 without an access key id/);
  t.regex(left.stderr, /1 request lines left out: merged by the log collector into its own record/);
});
