// `sfd-sidecar check` over clusters made from what the real tools make (the chart as helm renders it,
// pods as `inject` makes them, the status a kubelet reports): a healthy installation is all ok, and
// each break an incident brings is a failure or a warning naming the command that fixes it; a kind the
// input lacks is not checked; no Secret's value is ever printed. `check --pod` tells the decision the
// injector would take on one pod, with its rule, reason and what to change.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import {
  appPod,
  asList,
  chartObjects,
  injectorPods,
  KEYSTORE_VALUE,
  keystoreSecret,
  namespace,
  renderChart,
  type Json,
} from '../helpers/cluster-snapshot.js';

const RENDERED = renderChart();
const CHART = chartObjects(RENDERED);
const DEPLOYMENT = CHART.find((o) => o.kind === 'Deployment')!;
const TLS = CHART.find((o) => o.kind === 'Secret')!;

async function healthy(): Promise<Json[]> {
  return [
    namespace('sfd-system'),
    namespace('kube-system'),
    namespace('shop', { 'sfd-sidecar.io/inject': 'enabled' }),
    ...CHART,
    ...injectorPods(DEPLOYMENT, 2),
    keystoreSecret('shop'),
    await appPod('web-5c6b7d8f9-abcde', 'shop', { inject: true }),
  ];
}

const check = async (objects: Json[], ...args: string[]) => runCli(['check', ...args, '-'], { input: asList(objects) });
const linesOf = (stdout: string, status: string) => stdout.split('\n').filter((l) => l.startsWith(`${status} `));

test('a healthy installation: all ok but the missing entitlement policy, exit 0, no value printed', async (t) => {
  const run = await check(await healthy());
  t.is(run.code, 0, run.stdout);
  t.deepEqual(linesOf(run.stdout, 'fail'), []);
  t.deepEqual(
    linesOf(run.stdout, 'warn').map((l) => l.split(/\s{2,}/)[1]),
    ['entitlement policy'],
  );
  for (const check of ['injector', 'webhook', 'CA bundle', 'admission policy', 'key store Secret', 'sidecar image'])
    t.regex(run.stdout, new RegExp(`^ok\\s+${check}\\s`, 'm'), check);
  t.regex(run.stdout, /2 of 2 pods of sfd-system\/sfd-sidecar ready, version 0\.2\.0/);
  t.regex(run.stdout, /shop\/sfd-keys holds keystore\.json/);
  const key = String((TLS.data as Json)['tls.key']);
  for (const secret of [KEYSTORE_VALUE, Buffer.from(KEYSTORE_VALUE).toString('base64'), key, key.slice(0, 40)])
    t.false(run.stdout.includes(secret) || run.stderr.includes(secret));
});

const BREAKS: [title: string, change: (objects: Json[]) => Json[], expected: RegExp][] = [
  [
    'the injector down: no pod ready',
    (o) => [
      ...o.filter((x) => !(x.kind === 'Pod' && String((x.metadata as Json).name).startsWith('sfd-sidecar-'))),
      ...injectorPods(DEPLOYMENT, 2, false),
    ],
    /^fail\s+injector\s+0 of 2 pods of sfd-system\/sfd-sidecar ready[^\n]*\n\s+fix: kubectl -n sfd-system describe/m,
  ],
  [
    'the webhook configuration deleted',
    (o) =>
      o
        .filter((x) => x.kind !== 'MutatingWebhookConfiguration')
        .concat([{ kind: 'MutatingWebhookConfiguration', metadata: { name: 'other' }, webhooks: [] }]),
    /^fail\s+webhook\s+no MutatingWebhookConfiguration sfd-sidecar/m,
  ],
  [
    'a CA bundle that does not trust the serving certificate',
    (o) => {
      const other = renderChart().find((x) => x.kind === 'MutatingWebhookConfiguration')!;
      return [...o.filter((x) => x.kind !== 'MutatingWebhookConfiguration'), other];
    },
    /^fail\s+CA bundle\s+[^\n]*do not trust the certificate the injector serves/m,
  ],
  [
    'the webhook no longer excluding kube-system',
    (o) => {
      const copy = structuredClone(o);
      const webhook = copy.find((x) => x.kind === 'MutatingWebhookConfiguration')!;
      for (const w of webhook.webhooks as Json[]) (w.namespaceSelector as Json).matchExpressions = [];
      return copy;
    },
    /^warn\s+webhook\s+[^\n]*does not exclude the namespace kube-system/m,
  ],
  [
    "the previous chart's selectors, which read one spelling of the opt-in label each",
    (o) => {
      const copy = structuredClone(o);
      const webhook = copy.find((x) => x.kind === 'MutatingWebhookConfiguration')!;
      for (const w of webhook.webhooks as Json[])
        for (const selector of [w.namespaceSelector, w.objectSelector] as Json[])
          for (const e of selector.matchExpressions as Json[])
            if (e.key === 'sfd-sidecar.io/inject')
              e.values = selector === w.namespaceSelector ? ['enabled'] : e.operator === 'In' ? ['true'] : ['false'];
      return copy;
    },
    new RegExp(
      '^warn\\s+webhook\\s+' +
        '(?=[^\\n]*passes over namespaces labelled sfd-sidecar.io/inject=true)' +
        '(?=[^\\n]*passes over pods labelled sfd-sidecar.io/inject=enabled)' +
        '(?=[^\\n]*injects pods that decline with sfd-sidecar.io/inject=disabled)',
      'm',
    ),
  ],
  [
    'a namespace labelled with a value that neither asks nor declines',
    (o) => [...o, namespace('orders', { 'sfd-sidecar.io/inject': 'yes' })],
    /^warn\s+opt-in label values\s+Namespace\/orders is labelled sfd-sidecar.io\/inject="yes", which neither asks/m,
  ],
  [
    'the admission policy missing',
    (o) =>
      o
        .filter((x) => x.kind !== 'ValidatingAdmissionPolicy')
        .concat([{ kind: 'ValidatingAdmissionPolicy', metadata: { name: 'unrelated' } }]),
    /^fail\s+admission policy\s+no ValidatingAdmissionPolicy sfd-sidecar-keystore-mounts[^\n]*\n\s+fix: helm upgrade/m,
  ],
  [
    'the key store Secret missing in a namespace that asks',
    (o) => o.filter((x) => !(x.kind === 'Secret' && (x.metadata as Json).name === 'sfd-keys')),
    new RegExp(
      '^fail\\s+key store Secret\\s+shop/sfd-keys is missing[^\\n]*\\n\\s+' +
        'fix: kubectl -n shop create secret generic sfd-keys --from-file=keystore.json=keystore.json',
      'm',
    ),
  ],
];

for (const [title, change, expected] of BREAKS) {
  test(`fails or warns: ${title}`, async (t) => {
    const run = await check(change(await healthy()));
    t.regex(run.stdout, expected);
    if (/^fail/m.test(run.stdout)) t.is(run.code, 1);
  });
}

test('with an entitlement policy, check finds the one binding that denies, and says when it does not', async (t) => {
  const entitled = chartObjects(
    renderChart(
      'policy.entitlements[0].namespace=shop',
      'policy.entitlements[0].serviceAccounts={checkout}',
      'policy.entitlements[0].profiles={billing}',
    ),
  );
  const objects = (await healthy()).filter((o) => !CHART.includes(o)).concat(entitled);
  const bindings = objects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding');
  t.deepEqual(bindings.map(nameOf), ['sfd-sidecar-keystore-mounts'], 'the grants need no binding of their own');
  const run = await check(objects);
  t.regex(
    run.stdout,
    new RegExp(
      '^ok\\s+admission policy\\s+sfd-sidecar-keystore-mounts is bound and denies: ' +
        'sfd-sidecar-keystore-mounts judges every pod$',
      'm',
    ),
  );
  const rebound = (spec: Json) =>
    check(objects.map((o) => (bindings.includes(o) ? { ...o, spec: { ...(o.spec as Json), ...spec } } : o)));
  const some = await rebound({
    matchResources: { objectSelector: { matchLabels: { 'sfd-sidecar.io/inject': 'true' } } },
  });
  t.is(some.code, 1);
  t.regex(some.stdout, /^fail\s+admission policy\s+no binding of sfd-sidecar-keystore-mounts judges every pod/m);
  const warned = await rebound({ validationActions: ['Warn'] });
  t.regex(warned.stdout, /^warn\s+admission policy\s+the binding sfd-sidecar-keystore-mounts of [^\n]*does not deny/m);
  const unbound = await rebound({ policyName: 'unrelated' });
  t.is(unbound.code, 1);
  t.regex(unbound.stdout, /^fail\s+admission policy\s+the policy sfd-sidecar-keystore-mounts has no binding/m);
});

const nameOf = (object: Json): string => String((object.metadata as Json).name);

test('a pod that asked and runs without the sidecar, and one on another image, name the restart', async (t) => {
  const objects = [
    ...(await healthy()),
    await appPod('api-6f7d8c9b5-xyzab', 'shop'),
    await appPod('old-7d8e9f0a1-qwert', 'shop', { inject: true, image: 'ghcr.io/sfd-sidecar/sfd-sidecar:0.0.9' }),
  ];
  const run = await check(objects);
  t.is(run.code, 1);
  t.regex(
    run.stdout,
    new RegExp(
      '^fail\\s+pods without the sidecar\\s+Pod/api-6f7d8c9b5-xyzab in namespace shop asked[^\\n]*\\n\\s+' +
        'fix: kubectl -n shop rollout restart deployment/api \\(once',
      'm',
    ),
  );
  t.regex(
    run.stdout,
    /^warn\s+sidecar image\s+Pod\/old-7d8e9f0a1-qwert in namespace shop runs sidecar image [^\n]*:0\.0\.9/m,
  );
});

test('a kind the input lacks is not checked, not a failure; unreadable input is exit 2', async (t) => {
  const objects = (await healthy()).filter(
    (o) => !String(o.kind).startsWith('ValidatingAdmissionPolicy') && o.kind !== 'Secret',
  );
  const run = await check(objects);
  t.regex(
    run.stdout,
    new RegExp(
      '^not checked\\s+admission policy\\s+the input holds no ValidatingAdmissionPolicy or ' +
        'ValidatingAdmissionPolicyBinding: add validatingadmissionpolicies,validatingadmissionpolicybindings',
      'm',
    ),
  );
  t.regex(run.stdout, /^not checked\s+CA bundle/m);
  t.is(run.code, 0);
  const bad = await runCli(['check', '-'], { input: '{ not json' });
  t.is(bad.code, 2);
});

// A pipe whose kubectl failed (no `set -o pipefail`) gives check nothing: that must fail the gate, and say
// what input was expected and how to make it.
for (const [title, input] of [
  ['empty input', ''],
  ['whitespace only', '  \n\n'],
  ['an empty List', asList([])],
  ['items of no kind it checks', asList([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }])],
  ['an object with empty items', '{"items":[]}'],
] as const) {
  test(`check of ${title} is exit 2, naming the input expected and pipefail`, async (t) => {
    for (const args of [[], ['--json'], ['--pod', 'web']]) {
      const run = await runCli(['check', ...args, '-'], { input });
      t.is(run.code, 2, run.stderr);
      t.is(run.stdout, '');
      t.regex(run.stderr, /^sfd-sidecar check: nothing to check: standard input holds no /);
      t.regex(run.stderr, /kubectl get [a-z,]*pods[a-z,]* -A -o json/);
      t.regex(run.stderr, /set -o pipefail/);
    }
  });
}

test('check --pod tells the decision, its rule, reason and what to change', async (t) => {
  const risky = await appPod('risky-5c6b7d8f9-abcde', 'shop');
  ((risky.spec as Json).containers as Json[])[0]!.securityContext = { capabilities: { add: ['SYS_ADMIN'] } };
  (risky.metadata as Json).labels = { app: 'risky', 'sfd-sidecar.io/inject': 'true' };
  const objects = [...(await healthy()), risky];
  const refused = await check(objects, '--pod', 'risky-5c6b7d8f9-abcde', '-n', 'shop');
  t.is(refused.code, 1);
  t.regex(refused.stdout, /^Pod risky-5c6b7d8f9-abcde in shop: the injector would refuse it$/m);
  t.regex(refused.stdout, /rule: keepsKeysFromTheApplication/);
  t.regex(refused.stdout, /reason: key-access: /);
  t.regex(refused.stdout, /container app adds the capability SYS_ADMIN/);
  t.regex(refused.stdout, /to change: remove what the message names/);
  t.regex(refused.stdout, /get events --field-selector reason=FailedCreate/);
  const kept = await check(objects, '--pod', 'web-5c6b7d8f9-abcde', '-n', 'shop');
  t.is(kept.code, 0, kept.stdout);
  t.regex(kept.stdout, /the injector would leave it as it is/);
  const missing = await check(objects, '--pod', 'nothing', '-n', 'shop');
  t.is(missing.code, 2);
});

test('check --pod reads a manifest too, with the command settings as defaults and an entitlement policy', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-check-'));
  writeFileSync(join(dir, 'policy.yaml'), 'entitlements:\n  - namespace: shop\n    profiles: [billing]\n');
  const manifest = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: web, namespace: shop}',
    'spec:',
    '  selector: {matchLabels: {app: web}}',
    '  template:',
    '    metadata: {labels: {app: web, sfd-sidecar.io/inject: "true"}, annotations: {sfd-sidecar.io/profile: payroll}}',
    '    spec: {containers: [{name: web, image: example/web:1}]}',
  ].join('\n');
  const run = await runCli(
    ['check', '--pod', 'web', '--keystore-secret', 'sfd-keys', '--policy-file', join(dir, 'policy.yaml'), '-'],
    { input: manifest },
  );
  t.is(run.code, 1);
  t.regex(run.stdout, /Deployment web in shop: the injector would refuse it/);
  t.regex(run.stdout, /reason: not-entitled/);
  t.regex(run.stdout, /may not use profile payroll/);
});

test('check --pod over a manifest without --keystore-secret says the option is missing, no annotation', async (t) => {
  const manifest = (annotations: string) =>
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web, namespace: shop}',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      `    metadata: {labels: {app: web, sfd-sidecar.io/inject: "true"}${annotations}}`,
      '    spec: {containers: [{name: web, image: example/web:1}]}',
    ].join('\n');
  const run = await runCli(['check', '--pod', 'web', '-'], { input: manifest('') });
  t.is(run.code, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /^sfd-sidecar check: --keystore-secret is missing: /);
  t.regex(run.stderr, /give --keystore-secret NAME \(SFD_KEYSTORE_SECRET\)/);
  t.notRegex(run.stderr, /reason: annotation/);
  const named = await runCli(['check', '--pod', 'web', '-'], {
    input: manifest(', annotations: {sfd-sidecar.io/keystore-secret: sfd-keys}'),
  });
  t.is(named.code, 0, named.stderr);
  t.regex(named.stdout, /the injector would add the sidecar/);
  const fromEnvironment = await runCli(['check', '--pod', 'web', '-'], {
    input: manifest(''),
    env: { SFD_KEYSTORE_SECRET: 'sfd-keys' },
  });
  t.is(fromEnvironment.code, 0, fromEnvironment.stderr);
});
