// The operations an injected sidecar may sign, as `inject --policy-file` writes them into SFD_OPERATIONS:
// what the entitlements grant (their union; an entry without operations grants all), narrowed by the
// pod's sfd-sidecar.io/operations annotation, never widened by it; always written, for every profile
// the pod may sign with, and never settable from a ConfigMap or Secret the pod names.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import type { PodTemplate } from '../../src/injection/pod.js';

const dir = mkdtempSync(join(tmpdir(), 'sfd-operations-'));
const policy = (entries: object[]): string => {
  const file = join(dir, `policy-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, JSON.stringify({ entitlements: entries }));
  return file;
};

const pod = (annotations: Record<string, string> = {}) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'shop', annotations: { 'sfd-sidecar.io/profile': 'billing', ...annotations } },
    spec: { serviceAccountName: 'checkout', containers: [{ name: 'web', image: 'example/web:1' }] },
  });

async function operationsOf(input: string, ...args: string[]): Promise<unknown> {
  const run = await runCli(['inject', '--keystore-secret', 'sfd-keys', ...args, '-'], { input });
  if (run.code !== 0) throw new Error(run.stderr);
  const sidecar = (parse(run.stdout) as PodTemplate).spec.initContainers!.find((c) => c.name === 'sfd-sidecar')!;
  const entry = sidecar.env!.find((e) => e.name === 'SFD_OPERATIONS');
  return JSON.parse(entry!.value!) as unknown;
}

const READS = { methods: ['GET'], paths: ['/v1.2/reports/*'] };

test('without a policy every profile the pod may sign with is named, unnarrowed', async (t) => {
  t.deepEqual(await operationsOf(pod()), { billing: '*' });
  t.deepEqual(
    await operationsOf(
      pod({ 'sfd-sidecar.io/allowed-profiles': 'billing,ledger', 'sfd-sidecar.io/profile-header': 'X-P' }),
    ),
    { billing: '*', ledger: '*' },
  );
});

test("the entitlements' operations are their union, enforced unless every entry is a dry run", async (t) => {
  const one = policy([{ namespace: 'shop', profiles: ['billing'], operations: ['getCustomer'] }]);
  t.deepEqual(await operationsOf(pod(), '--policy-file', one), { billing: { operations: ['getCustomer'] } });
  const two = policy([
    { namespace: 'shop', profiles: ['billing'], operations: ['getCustomer'] },
    { namespace: 'shop', serviceAccounts: ['checkout'], profiles: ['billing'], operations: [READS], enforce: false },
  ]);
  t.deepEqual(await operationsOf(pod(), '--policy-file', two), {
    billing: { operations: ['getCustomer', READS], enforce: false },
  });
  const all = policy([
    { namespace: 'shop', profiles: ['billing'], operations: ['getCustomer'] },
    { namespace: 'shop', profiles: ['billing'] },
  ]);
  t.deepEqual(
    await operationsOf(pod(), '--policy-file', all),
    { billing: '*' },
    'an entry without operations grants all',
  );
});

test('the annotation narrows within the grant; asking for more is refused naming only what was asked', async (t) => {
  const file = policy([{ namespace: 'shop', profiles: ['billing'], operations: ['getCustomer', READS] }]);
  t.deepEqual(await operationsOf(pod({ 'sfd-sidecar.io/operations': 'GET /v1.2/reports/*' }), '--policy-file', file), {
    billing: { operations: [READS] },
  });
  const wider = await runCli(['inject', '--keystore-secret', 'sfd-keys', '--policy-file', file, '-'], {
    input: pod({ 'sfd-sidecar.io/operations': 'getCustomer, deleteRateLimit' }),
  });
  t.is(wider.code, 1);
  t.regex(wider.stderr, /may not use deleteRateLimit with profile billing: the entitlement policy does not grant it/);
  t.notRegex(wider.stderr, /reports/, 'what the policy grants is never listed');
  t.deepEqual(await operationsOf(pod({ 'sfd-sidecar.io/operations': 'getRateLimit' })), {
    billing: { operations: ['getRateLimit'] },
  });
});

test('a ConfigMap or Secret the pod names can never set SFD_OPERATIONS', async (t) => {
  const run = await runCli(['inject', '--keystore-secret', 'sfd-keys', '-'], {
    input: pod({ 'sfd-sidecar.io/env-config-map': 'settings', 'sfd-sidecar.io/env-secret': 'secrets' }),
  });
  t.is(run.code, 0, run.stderr);
  const sidecar = (parse(run.stdout) as PodTemplate).spec.initContainers!.find((c) => c.name === 'sfd-sidecar')!;
  const fromObjects = sidecar.env!.filter((e) => e.valueFrom !== undefined).map((e) => e.name);
  t.true(fromObjects.length > 10, 'other settings may come from the objects');
  t.false(fromObjects.includes('SFD_OPERATIONS'));
  t.is(sidecar.env!.filter((e) => e.name === 'SFD_OPERATIONS').length, 1);
});
