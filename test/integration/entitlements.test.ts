// The entitlement policy, through `inject` and through the webhook over HTTPS: an entitled pod gets the
// sidecar; a pod that would use another profile, that is in another namespace, runs as another service
// account or names none (so runs as default) is refused with a message naming the object, its
// namespace, its service account and the profile; the webhook counts each refusal by reason and logs
// one line per decision with who asked.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { stringify } from 'yaml';
import { entitledProfiles, parseEntitlementPolicy } from '../../src/injection/policy/entitlement-policy.js';
import { readRegularFile } from '../../src/files/regular-file.js';
import { watchPolicyFile } from '../../src/injection/policy/policy-reloader.js';
import { admissionReviewOf } from '../helpers/admission-review.js';
import { runCli } from '../helpers/cli-process.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { send } from '../helpers/http.js';
import { DEFAULTS } from '../helpers/injection.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { REPO_ROOT } from '../helpers/tools.js';
import { captureLogs } from '../helpers/log-capture.js';
import { eventually } from '../helpers/time.js';

const POLICY_FILE = join(REPO_ROOT, 'test/fixtures/policy/entitlements.yaml');
const parsed = parseEntitlementPolicy(readFileSync(POLICY_FILE, 'utf8'));
if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
const POLICY = parsed.policy;

function deployment(o: { namespace?: string; serviceAccount?: string; profile: string; allowed?: string }) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', ...(o.namespace ? { namespace: o.namespace } : {}) },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: {
          labels: { app: 'web' },
          annotations: {
            'sfd-sidecar.io/profile': o.profile,
            ...(o.allowed
              ? { 'sfd-sidecar.io/allowed-profiles': o.allowed, 'sfd-sidecar.io/profile-header': 'X-Pick' }
              : {}),
          },
        },
        spec: {
          ...(o.serviceAccount ? { serviceAccountName: o.serviceAccount } : {}),
          containers: [{ name: 'web', image: 'example/web:1' }],
        },
      },
    },
  };
}

function manifest(object: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-policy-'));
  writeFileSync(join(dir, 'web.yaml'), stringify(object));
  return join(dir, 'web.yaml');
}

const inject = (file: string, ...args: string[]) =>
  runCli(['inject', '--keystore-secret', 'sfd-keys', '--policy-file', POLICY_FILE, ...args, file]);

test('inject: an entitled workload gets the sidecar, with the profiles it may pick per request', async (t) => {
  const run = await inject(
    manifest(deployment({ namespace: 'shop', serviceAccount: 'checkout', profile: 'billing', allowed: 'billing' })),
  );
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /SFD_PROFILE\n\s+value: billing/);
  t.regex(run.stdout, /SFD_ALLOWED_PROFILES\n\s+value: billing/);
  t.regex(run.stdout, /SFD_PROFILE_HEADER\n\s+value: X-Pick/);
});

for (const [title, object, args, message] of [
  [
    'another profile',
    deployment({ namespace: 'shop', serviceAccount: 'checkout', profile: 'reports' }),
    [],
    /service account checkout\) may not use profile reports: the entitlement policy does not grant it$/m,
  ],
  [
    'a profile picked per request',
    deployment({ namespace: 'shop', serviceAccount: 'checkout', profile: 'billing', allowed: 'billing,reports' }),
    [],
    /may not use profile reports/,
  ],
  [
    'another namespace',
    deployment({ namespace: 'reporting', serviceAccount: 'checkout', profile: 'billing' }),
    [],
    /Deployment\/web \(namespace reporting, service account checkout\) may not use profile billing: [^,]*$/m,
  ],
  [
    'another service account',
    deployment({ namespace: 'shop', serviceAccount: 'frontend', profile: 'billing' }),
    [],
    /\(namespace shop, service account frontend\) may not use profile billing: the .* policy does not grant it/,
  ],
  [
    'no service account named',
    deployment({ namespace: 'shop', profile: 'billing' }),
    [],
    /\(namespace shop, service account default\) may not use profile billing/,
  ],
  [
    'no namespace named, and --namespace',
    deployment({ serviceAccount: 'checkout', profile: 'billing' }),
    ['--namespace', 'reporting'],
    /\(namespace reporting, service account checkout\) may not use profile billing/,
  ],
  [
    'no namespace named: default, as kubectl',
    deployment({ serviceAccount: 'checkout', profile: 'billing' }),
    [],
    /\(namespace default, service account checkout\) may not use profile billing/,
  ],
] as const) {
  test(`inject refuses ${title}: exit 1, nothing on stdout, a message naming who and what`, async (t) => {
    const run = await inject(manifest(object), ...args);
    t.is(run.code, 1);
    t.is(run.stdout, '');
    t.regex(run.stderr, message);
  });
}

test('inject: without a policy every profile may be used, as before', async (t) => {
  const run = await runCli([
    'inject',
    '--keystore-secret',
    'sfd-keys',
    manifest(deployment({ namespace: 'shop', profile: 'reports' })),
  ]);
  t.is(run.code, 0, run.stderr);
});

const podOf = (o: { serviceAccount?: string; profile: string }) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    generateName: 'web-',
    labels: { 'sfd-sidecar.io/inject': 'true' },
    annotations: { 'sfd-sidecar.io/profile': o.profile },
  },
  spec: {
    ...(o.serviceAccount ? { serviceAccountName: o.serviceAccount } : {}),
    containers: [{ name: 'web', image: 'example/web:1' }],
  },
});

test('the webhook applies the policy: entitled pods injected, the others refused, counted, logged', async (t) => {
  const stack = await startInjectorStack(t, DEFAULTS, { policy: () => POLICY });
  const review = async (pod: object, namespace: string) =>
    (
      JSON.parse((await stack.post('/mutate', admissionReviewOf(pod, namespace))).body) as {
        response: { allowed: boolean; patch?: string; status?: { message: string } };
      }
    ).response;

  const entitled = await review(podOf({ serviceAccount: 'checkout', profile: 'billing' }), 'shop');
  t.true(entitled.allowed);
  t.truthy(entitled.patch);

  const refusals: [object, string, RegExp][] = [
    [podOf({ serviceAccount: 'checkout', profile: 'reports' }), 'shop', /may not use profile reports/],
    [podOf({ serviceAccount: 'checkout', profile: 'billing' }), 'reporting', /namespace reporting/],
    [podOf({ serviceAccount: 'frontend', profile: 'billing' }), 'shop', /service account frontend/],
    [podOf({ profile: 'billing' }), 'shop', /service account default/],
  ];
  for (const [pod, namespace, message] of refusals) {
    const answer = await review(pod, namespace);
    t.false(answer.allowed);
    t.regex(answer.status!.message, /^sfd-sidecar cannot be added to Pod web-\* in \w+: Pod web-\* \(namespace/);
    t.regex(answer.status!.message, message);
  }
  const samples = parseExposition((await send(`${stack.adminUrl}/metrics`)).body.toString());
  t.is(valueOf(samples, 'sfd_injector_decisions_total', { decision: 'refused', reason: 'not-entitled' }), 4);
  t.is(valueOf(samples, 'sfd_injector_decisions_total', { decision: 'injected', reason: 'none' }), 1);
  const decisions = stack.logs.lines().filter((line) => line.event === 'admission review');
  t.is(decisions.length, 5);
  t.like(decisions[0], { result: 'injected', namespace: 'shop', serviceAccount: 'checkout', profiles: 'billing' });
  t.like(decisions[4], { result: 'refused', reason: 'not-entitled', namespace: 'shop', serviceAccount: 'default' });
});

test('a policy file with mistakes is refused at start, naming each', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-policy-'));
  writeFileSync(
    join(dir, 'policy.yaml'),
    'entitlements:\n  - namespace: Shop\n    profiles: []\n  - namespace: ok\n    profiles: [a]\n    roles: [x]\n',
  );
  const run = await runCli(['inject', '--keystore-secret', 'k', '--policy-file', join(dir, 'policy.yaml'), '-'], {
    input: '',
  });
  t.is(run.code, 2);
  t.regex(run.stderr, /SFD_POLICY_FILE: entitlements\[0\]\.namespace: required, a namespace name/);
  t.regex(run.stderr, /SFD_POLICY_FILE: entitlements\[0\]\.profiles: must be a list of one profile name or more/);
  t.regex(run.stderr, /SFD_POLICY_FILE: entitlements\[1\]: has no field "roles"/);
});

test('a ConfigMap of settings the pod names cannot widen the profiles it was injected with', async (t) => {
  const object = deployment({ namespace: 'shop', serviceAccount: 'checkout', profile: 'billing' });
  (object.spec.template.metadata.annotations as Record<string, string>)['sfd-sidecar.io/env-config-map'] =
    'web-sidecar-settings';
  const run = await inject(manifest(object));
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /key: SFD_UPSTREAM_TIMEOUT_MS/, 'the ConfigMap gives other settings');
  for (const name of ['SFD_ALLOWED_PROFILES', 'SFD_PROFILE_HEADER', 'SFD_PROFILE'])
    t.false(run.stdout.includes(`key: ${name}\n`), `${name} never comes from the ConfigMap`);
});

test('the injector re-reads its policy file when it changes, and keeps the last good one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-policy-'));
  const path = join(dir, 'policy.yaml');
  writeFileSync(path, readFileSync(POLICY_FILE, 'utf8'));
  const logs = captureLogs();
  const reloader = watchPolicyFile({
    path,
    policy: POLICY,
    text: readFileSync(POLICY_FILE, 'utf8'),
    readFile: readRegularFile,
    logger: logs.logger,
    intervalMs: 60_000,
    stalledAfterMs: 60_000,
  });
  t.teardown(() => reloader.stop());
  writeFileSync(path, 'entitlements:\n  - namespace: shop\n    profiles: [billing, reports]\n');
  t.true(await eventually(() => entitledProfiles(reloader.current(), 'shop', 'frontend').has('reports')));
  writeFileSync(path, 'entitlements: {}\n');
  t.true(
    await eventually(() =>
      logs.lines().some((l) => l.event === 'entitlement policy not reloaded; keeping the one in use'),
    ),
  );
  t.true(entitledProfiles(reloader.current(), 'shop', 'frontend').has('reports'), 'the last good policy stays');
});

test("over HTTPS, an entitled pod gets only its profile's keys; an app reading the Secret is refused", async (t) => {
  const stack = await startInjectorStack(t, { ...DEFAULTS, keystoreLayout: 'per-profile' }, { policy: () => POLICY });
  const review = async (pod: object) =>
    (
      JSON.parse((await stack.post('/mutate', admissionReviewOf(pod, 'shop'))).body) as {
        response: { allowed: boolean; patch?: string; status?: { message: string } };
      }
    ).response;
  const entitled = await review(podOf({ serviceAccount: 'checkout', profile: 'billing' }));
  t.true(entitled.allowed);
  const patch = JSON.parse(Buffer.from(entitled.patch!, 'base64').toString()) as { path: string; value: unknown }[];
  const volume = patch.find((op) => op.path.startsWith('/spec/volumes'))!.value;
  const volumes = Array.isArray(volume) ? volume : [volume];
  t.deepEqual(
    (volumes as { name: string; secret?: { items?: unknown } }[]).find((v) => v.name === 'sfd-sidecar-keystore')!
      .secret!.items,
    [{ key: 'billing.json', path: 'billing.json' }],
  );

  const reader = podOf({ serviceAccount: 'checkout', profile: 'billing' });
  (reader.spec as Record<string, unknown>).volumes = [{ name: 'keys', secret: { secretName: 'sfd-keys' } }];
  (reader.spec.containers[0] as Record<string, unknown>).volumeMounts = [{ name: 'keys', mountPath: '/k' }];
  const refused = await review(reader);
  t.false(refused.allowed);
  t.regex(refused.status!.message, /container web mounts volume keys, which holds the key store Secret/);
});
