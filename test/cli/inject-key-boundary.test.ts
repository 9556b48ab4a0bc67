// The key boundary through `inject --policy-file`, as a user runs it: apps that reach the node (a
// hostPath volume of any path, a capability beyond the baseline profile) are refused like privileged
// ones; the service account judged is the one the API server runs the pod as; a refusal names only the
// profile denied, never what the policy grants.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'sfd-boundary-'));
const POLICY = join(dir, 'policy.yaml');
writeFileSync(
  POLICY,
  [
    'entitlements:',
    '  - namespace: shop',
    '    serviceAccounts: [robot]',
    '    profiles: [billing, ledger, payroll-readonly]',
    '  - namespace: shop',
    '    serviceAccounts: [default]',
    '    profiles: [public]',
  ].join('\n'),
);

const pod = (spec: object, profile = 'billing') =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'shop', annotations: { 'sfd-sidecar.io/profile': profile } },
    spec: { containers: [{ name: 'web', image: 'example/web:1' }], serviceAccountName: 'robot', ...spec },
  });

const inject = (input: string) =>
  runCli(['inject', '--keystore-secret', 'sfd-keys', '--policy-file', POLICY, '-'], { input });

const REACHES_THE_NODE: [string, object, RegExp][] = [
  [
    'a hostPath volume of the kubelet',
    { volumes: [{ name: 'node', hostPath: { path: '/var/lib/kubelet' } }] },
    /volume node is a hostPath/,
  ],
  ['a hostPath volume of /', { volumes: [{ name: 'root', hostPath: { path: '/', type: '' } }] }, /volume root/],
  // Compared as written, as the Pod Security Standards compare them: CAP_CHOWN is not CHOWN there.
  ...(['SYS_ADMIN', 'cap_sys_admin', 'DAC_READ_SEARCH', 'ALL', 'NET_ADMIN', 'CAP_CHOWN'].map((capability) => [
    `an app adding ${capability}`,
    {
      containers: [{ name: 'web', image: 'example/web:1', securityContext: { capabilities: { add: [capability] } } }],
    },
    new RegExp(`container web adds the capability ${capability}, beyond the baseline`),
  ]) as [string, object, RegExp][]),
  [
    'an init container adding SYS_PTRACE',
    {
      initContainers: [
        { name: 'setup', image: 'example/setup:1', securityContext: { capabilities: { add: ['SYS_PTRACE'] } } },
      ],
    },
    /container setup adds the capability SYS_PTRACE/,
  ],
];

for (const [title, spec, expected] of REACHES_THE_NODE) {
  test(`refused as key-access: ${title}`, async (t) => {
    const result = await inject(pod(spec));
    t.is(result.code, 1);
    t.is(result.stdout, '');
    t.regex(result.stderr, expected);
  });
}

test('capabilities of the baseline profile are injected', async (t) => {
  const add = ['NET_BIND_SERVICE', 'CHOWN', 'KILL'];
  const result = await inject(
    pod({ containers: [{ name: 'web', image: 'example/web:1', securityContext: { capabilities: { add } } }] }),
  );
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /sfd-sidecar/);
});

test('the account judged is the one the API server runs: serviceAccount when the name is empty', async (t) => {
  const asRobot = await inject(pod({ serviceAccountName: '', serviceAccount: 'robot' }));
  t.is(asRobot.code, 0, asRobot.stderr);
  const asDefault = await inject(pod({ serviceAccountName: '', serviceAccount: '' }));
  t.is(asDefault.code, 1);
  t.regex(asDefault.stderr, /service account default\) may not use profile billing/);
});

test('a refusal names the profile denied and never lists what the policy grants', async (t) => {
  const result = await inject(pod({ serviceAccountName: 'default' }, 'billing'));
  t.is(result.code, 1);
  t.regex(result.stderr, /may not use profile billing/);
  for (const granted of ['public', 'ledger', 'payroll-readonly']) t.false(result.stderr.includes(granted), granted);
});
