// The chart's key store admission policy, judged by the model of the API server's CEL: every pod
// `inject` makes from the test corpora (read back by kubectl) is admitted as written and through the
// model of the whole admission chain (defaults, the ServiceAccount plugin's token, the webhooks and
// their reinvocation), with the default token and without, and so is every pod the webhook makes from
// the same templates; every way the policy promises to stop, tried as an attacker with pod-create
// rights would, is refused with its message. The cluster tier checks the model against a real API
// server.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse, parseAllDocuments } from 'yaml';
import { admitPod, type ChainCluster } from '../helpers/admission-chain.js';
import { renderedBoundPolicy } from '../helpers/admission-bindings.js';
import { DEFAULTS } from '../helpers/injection.js';
import {
  refusals,
  renderedWebhooks,
  renderedPolicy,
  type AdmissionInput,
  type PolicySpec,
} from '../helpers/admission-policy.js';
import { renderChart } from '../helpers/chart-render.js';
import { runCli } from '../helpers/cli-process.js';
import { CORPUS_INJECT_ARGS } from '../helpers/corpus-settings.js';
import { kubeTool } from '../helpers/k8s-tools.js';
import { selects, type Selector } from '../helpers/label-selector.js';
import { kubectlRead } from '../helpers/manifest-corpus.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';
import type { PodTemplate } from '../../src/injection/pod.js';
import {
  app,
  appOf,
  envOf,
  injected,
  POLICY_ATTACKS,
  sidecarIn,
  sidecarOf,
  volumesOf,
  type Pod,
} from '../helpers/hostile-pods.js';
import { repositoryOf } from '../../src/injection/decide/sidecar-deviations.js';
import { VERSION } from '../../src/version.js';

const POLICY = renderedPolicy('webhook.excludeNamespaces={legacy}');
const BOUND = renderedBoundPolicy('webhook.excludeNamespaces={legacy}');
const admitted = (input: AdmissionInput) => refusals(POLICY, input);

const TEMPLATE_PATHS: Record<string, string[]> = {
  Pod: [],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
};
function templateOf(object: { kind?: unknown }): PodTemplate | undefined {
  const path = TEMPLATE_PATHS[String(object.kind)] ?? ['spec', 'template'];
  let value: unknown = object;
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  return value as PodTemplate | undefined;
}
const asPod = (template: PodTemplate): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: template.metadata ?? {},
  spec: template.spec,
});

/** The chart as the tests render it, its webhooks and policy in a namespace with no label of its own. */
const WEBHOOKS = renderedWebhooks('webhook.excludeNamespaces={legacy}');
const chain = (automount?: boolean): ChainCluster => ({
  namespace: 'shop',
  ...(automount === undefined ? {} : { accountAutomount: automount }),
  webhooks: WEBHOOKS,
  injector: { defaults: DEFAULTS },
  admissionPolicy: BOUND,
});

test('every pod inject makes from the corpora, and the webhook from their templates, passes admission', async (t) => {
  const kubectl = kubeTool('kubectl');
  let pods = 0;
  const asked = (template: PodTemplate): Pod => {
    const pod = asPod(structuredClone(template));
    pod.metadata.labels = { ...pod.metadata.labels, 'sfd-sidecar.io/inject': 'true' };
    return pod;
  };
  for (const dir of ['test/fixtures/world', 'test/fixtures/manifests']) {
    for (const name of readdirSync(join(REPO_ROOT, dir)).filter((n) => /\.(ya?ml|json)$/.test(n))) {
      const file = join(REPO_ROOT, dir, name);
      const originals = (await kubectlRead(kubectl, readFileSync(file, 'utf8'))) ?? [];
      for (const mode of ['native', 'classic']) {
        const result = await runCli(['inject', ...CORPUS_INJECT_ARGS, '--sidecar-mode', mode, file]);
        if (result.code !== 0) continue;
        for (const [index, object] of ((await kubectlRead(kubectl, result.stdout)) ?? []).entries()) {
          const template = templateOf(object);
          if (!template || !sidecarIn(template)) continue;
          pods += 1;
          const pod = asPod(template);
          t.deepEqual(admitted({ object: pod }), [], `${name} (${mode})`);
          for (const automount of [undefined, false]) {
            const at = `${name} (${mode}, ${automount === false ? 'no token' : 'default token'})`;
            const offline = admitPod(structuredClone(pod), chain(automount));
            t.true(offline.allowed, `${at}: ${offline.allowed ? '' : offline.messages.join('; ')}`);
            const original = templateOf(originals[index] ?? {});
            if (!original || mode !== 'native') continue;
            const webhook = admitPod(asked(original), chain(automount));
            t.true(webhook.allowed, `${at} through the webhook: ${webhook.allowed ? '' : webhook.messages.join('; ')}`);
            if (webhook.allowed) t.truthy(sidecarIn(webhook.pod as never), `${at}: the webhook added the sidecar`);
          }
        }
      }
    }
  }
  t.true(pods >= 40, `${pods} injected pods checked`);
});

test('pods injected with settings objects, per-profile keys or a platform user are admitted', async (t) => {
  const cases: [Partial<PodTemplate['spec']>, Record<string, string>, string[]][] = [
    [{ containers: [app()] }, { 'sfd-sidecar.io/env-config-map': 'c', 'sfd-sidecar.io/env-secret': 's' }, []],
    [
      { containers: [app()] },
      { 'sfd-sidecar.io/allowed-profiles': 'a,b', 'sfd-sidecar.io/profile-header': 'X-Pick' },
      ['--keystore-layout', 'per-profile'],
    ],
    [{ containers: [app()] }, { 'sfd-sidecar.io/sidecar-user': 'platform', 'sfd-sidecar.io/mode': 'classic' }, []],
    [
      {
        shareProcessNamespace: true,
        containers: [app({ securityContext: { runAsUser: 1000, allowPrivilegeEscalation: false } })],
      },
      {},
      [],
    ],
  ];
  for (const [spec, annotations, args] of cases) {
    const pod = await injected(spec, annotations, args);
    t.deepEqual(admitted({ object: pod }), [], JSON.stringify(annotations));
  }
});

test("a pod asking through its namespace is admitted, and updates that keep the sidecar's image", async (t) => {
  const pod = await injected({ containers: [app()] });
  delete pod.metadata.labels!['sfd-sidecar.io/inject'];
  t.deepEqual(admitted({ object: pod, namespaceLabels: { 'sfd-sidecar.io/inject': 'enabled' } }), []);
  const updated = structuredClone(pod);
  updated.spec.containers[0]!.image = 'example/web:2';
  t.deepEqual(admitted({ object: updated, oldObject: pod, operation: 'UPDATE' }), []);
});

test('pods that never touch the key store pass, wherever they are', (t) => {
  const plain = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [app()] } };
  t.deepEqual(admitted({ object: plain }), []);
  const privileged = structuredClone(plain);
  privileged.spec.containers[0] = app({ securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } } });
  t.deepEqual(admitted({ object: privileged, namespace: 'kube-system' }), []);
});

/** One pod as `inject` makes it, which each attack below changes a copy of. */
const INJECTED = injected({ containers: [app({ securityContext: { runAsUser: 1000 } })] });

for (const [title, change, expected, input] of POLICY_ATTACKS) {
  test(`refused: ${title}`, async (t) => {
    const pod = structuredClone(await INJECTED);
    t.deepEqual(admitted({ object: pod, ...input, namespace: 'shop' }), [], 'the injected pod itself passes');
    change(pod);
    const found = admitted({ object: pod, ...input });
    t.true(
      found.some((message) => expected.test(message)),
      found.join('\n'),
    );
  });
}

test("refused: an update that changes the sidecar's image", async (t) => {
  const pod = await injected({ containers: [app()] });
  const updated = structuredClone(pod);
  sidecarOf(updated).image = 'ghcr.io/sfd-sidecar/sfd-sidecar:9.9.9';
  t.deepEqual(admitted({ object: updated, oldObject: pod, operation: 'UPDATE' }), [
    'the image of a container that reads the key store cannot change',
  ]);
});

test('the Secret a pod names for its own sidecar is a key store too', async (t) => {
  const pod = await injected({ containers: [app()] }, { 'sfd-sidecar.io/keystore-secret': 'team-keys' });
  t.deepEqual(admitted({ object: pod }), []);
  volumesOf(pod).push({ name: 'mine', secret: { secretName: 'team-keys' } });
  appOf(pod).volumeMounts = [{ name: 'mine', mountPath: '/m' }];
  t.true(admitted({ object: pod }).some((m) => /only the sfd-sidecar container/.test(m)));
});

test('the chart ships it only where the API exists (Kubernetes 1.30) and when enabled', (t) => {
  const render = (...extra: string[]) =>
    runTool(kubeTool('helm'), [
      'template',
      'r',
      join(REPO_ROOT, 'helm/sfd-sidecar'),
      '--set',
      'keystore.existingSecret=k',
      ...extra,
    ]).stdout;
  t.regex(render(), /kind: ValidatingAdmissionPolicy\n/);
  t.notRegex(render('--kube-version', '1.29.0', '--set', 'sidecar.mode=classic'), /kind: ValidatingAdmissionPolicy\n/);
  t.notRegex(render('--set', 'admissionPolicy.enabled=false'), /kind: ValidatingAdmissionPolicy\n/);
});

/** The sidecar image the injector writes (SFD_IMAGE) with these values. */
function injectedImage(...setValues: string[]): string {
  const args = ['template', 'r', 'helm/sfd-sidecar', '--set', 'keystore.existingSecret=sfd-keys'];
  for (const value of setValues) args.push('--set', value);
  const result = runTool(kubeTool('helm'), [...args, '--show-only', 'templates/deployment.yaml']);
  if (result.code !== 0) throw new Error(result.stderr);
  const deployment = parse(result.stdout) as {
    spec: { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } };
  };
  return deployment.spec.template.spec.containers[0]!.env.find((e) => e.name === 'SFD_IMAGE')!.value!;
}

test('the policy admits the image the injector injects, however registry, tag and digest are set', async (t) => {
  const digest = `sha256:${'c'.repeat(64)}`;
  const combinations: string[][] = [
    [],
    ['global.imageRegistry=mirror.example.internal'],
    ['global.imageRegistry=harbor.local:5000/ghcr-proxy'],
    ['sidecar.image.registry=registry.local', 'global.imageRegistry=mirror.example.internal'],
    ['image.registry=injector-only.local'],
    [`sidecar.image.digest=${digest}`],
    [`sidecar.image.digest=${digest}`, 'global.imageRegistry=mirror.example.internal'],
    ['sidecar.image.tag=1.2.3', `sidecar.image.digest=${digest}`],
    [`sidecar.image.tag=1.2.3@${digest}`, 'sidecar.image.registry=localhost:5000'],
    ['sidecar.image.repository=team/sfd-sidecar', 'sidecar.image.registry=registry.local'],
  ];
  const published = await injected({ containers: [app()] });
  let elsewhere = 0;
  for (const values of combinations) {
    const image = injectedImage(...values);
    const policy = renderedPolicy(...values);
    const pod = await injected({ containers: [app()] }, {}, ['--image', image]);
    t.is(sidecarOf(pod).image, image);
    t.deepEqual(refusals(policy, { object: pod }), [], `${values.join(' ')}: ${image}`);
    // A sidecar from anywhere else than the registry and repository the values give is refused.
    if (repositoryOf(String(sidecarOf(published).image)) === repositoryOf(image)) continue;
    elsewhere += 1;
    t.true(
      refusals(policy, { object: published }).some((m) => /the chart's sidecar image/.test(m)),
      `${values.join(' ')}: ${String(sidecarOf(published).image)} refused`,
    );
  }
  t.is(elsewhere, 6, 'each registry or repository set moves what the policy admits');
});

test("with extra selector terms, the policy admits exactly the pods the webhook's selectors match", async (t) => {
  const values = [
    'webhook.namespaceSelectorExtra[0].key=env',
    'webhook.namespaceSelectorExtra[0].operator=NotIn',
    'webhook.namespaceSelectorExtra[0].values[0]=prod',
    'webhook.objectSelectorExtra[0].key=team',
    'webhook.objectSelectorExtra[0].operator=In',
    'webhook.objectSelectorExtra[0].values[0]=a',
    'webhook.objectSelectorExtra[0].values[1]=b',
    'webhook.objectSelectorExtra[1].key=legacy',
    'webhook.objectSelectorExtra[1].operator=DoesNotExist',
    'webhook.objectSelectorExtra[2].key=tier',
    'webhook.objectSelectorExtra[2].operator=Exists',
  ];
  const policy = renderedPolicy(...values);
  const args = ['template', 'r', 'helm/sfd-sidecar', '-n', 'sfd-system', '--set', 'keystore.existingSecret=sfd-keys'];
  for (const value of values) args.push('--set', value);
  const result = runTool(kubeTool('helm'), [...args, '--show-only', 'templates/webhook.yaml']);
  const webhooks = parseAllDocuments(result.stdout)
    .map((d) => d.toJS() as { kind?: string; webhooks?: { namespaceSelector: Selector; objectSelector: Selector }[] })
    .find((o) => o?.kind === 'MutatingWebhookConfiguration')!.webhooks!;
  t.is(webhooks.length, 2);
  const base = await injected({ containers: [app()] });
  const judged = /one the injector judges/;
  let admittedPods = 0;
  let cases = 0;
  for (const inject of ['true', 'false', undefined])
    for (const team of ['a', 'c', undefined])
      for (const legacy of ['yes', undefined])
        for (const tier of ['web', undefined])
          for (const optIn of [true, false])
            for (const env of ['prod', 'dev', undefined]) {
              const podLabels: Record<string, string> = {};
              for (const [key, value] of Object.entries({ 'sfd-sidecar.io/inject': inject, team, legacy, tier }))
                if (value !== undefined) podLabels[key] = value;
              const namespaceLabels: Record<string, string> = {};
              if (optIn) namespaceLabels['sfd-sidecar.io/inject'] = 'enabled';
              if (env !== undefined) namespaceLabels.env = env;
              const expected = webhooks.some(
                (w) =>
                  selects(w.namespaceSelector, { ...namespaceLabels, 'kubernetes.io/metadata.name': 'shop' }) &&
                  selects(w.objectSelector, podLabels),
              );
              const pod = structuredClone(base);
              pod.metadata.labels = podLabels;
              const found = refusals(policy, { object: pod, namespace: 'shop', namespaceLabels });
              const name = JSON.stringify({ podLabels, namespaceLabels });
              t.is(!found.some((m) => judged.test(m)), expected, name);
              t.deepEqual(
                found.filter((m) => !judged.test(m)),
                [],
                name,
              );
              cases += 1;
              if (expected) admittedPods += 1;
            }
  t.is(cases, 216);
  t.true(admittedPods > 0 && admittedPods < cases, `${admittedPods} of ${cases} admitted`);
  // Without extra terms, no term is added: the policy the chart always rendered.
  t.notRegex(JSON.stringify(renderedPolicy()), /extra selector terms/);
});

test('one render with a mirror, a digest and extra selector terms: the injector and the policy agree', async (t) => {
  const digest = `sha256:${'f'.repeat(64)}`;
  const result = renderChart([
    '--set',
    'keystore.existingSecret=sfd-keys',
    '--set',
    'global.imageRegistry=mirror.example.internal:5000/ghcr',
    '--set',
    `sidecar.image.digest=${digest}`,
    '--set-json',
    'webhook.namespaceSelectorExtra=[{"key":"env","operator":"In","values":["staging"]}]',
    '--set-json',
    'webhook.objectSelectorExtra=[{"key":"team","operator":"Exists"}]',
  ]);
  t.is(result.code, 0, result.stderr);
  const kind = (name: string) => result.objects.find((o) => o.kind === name) as unknown;
  const deployment = kind('Deployment') as {
    spec: { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } };
  };
  const image = deployment.spec.template.spec.containers[0]!.env.find((e) => e.name === 'SFD_IMAGE')!.value!;
  t.is(image, `mirror.example.internal:5000/ghcr/sfd-sidecar/sfd-sidecar:${VERSION}@${digest}`);

  const policy = (kind('ValidatingAdmissionPolicy') as { spec: PolicySpec }).spec;

  // The policy requires the very terms the webhook's selectors add.
  const webhooks = (
    kind('MutatingWebhookConfiguration') as {
      webhooks: { namespaceSelector: Selector; objectSelector: Selector }[];
    }
  ).webhooks;
  for (const webhook of webhooks) {
    t.deepEqual(webhook.namespaceSelector.matchExpressions?.at(-1), {
      key: 'env',
      operator: 'In',
      values: ['staging'],
    });
    t.deepEqual(webhook.objectSelector.matchExpressions?.at(-1), { key: 'team', operator: 'Exists' });
  }

  // A pod the injector makes with these values, in a namespace and with labels the webhook selects, is
  // admitted; the same pod with the sidecar pulled from the published registry is refused, and so is one
  // the webhook's selectors would never have sent to the injector.
  const pod = await injected({ containers: [app()] }, {}, ['--image', image]);
  pod.metadata.labels = { ...pod.metadata.labels, team: 'shop' };
  const namespaceLabels = { env: 'staging' };
  t.true(
    webhooks.some(
      (w) =>
        selects(w.namespaceSelector, { ...namespaceLabels, 'kubernetes.io/metadata.name': 'shop' }) &&
        selects(w.objectSelector, pod.metadata.labels!),
    ),
    'the webhook sends this pod to the injector',
  );
  t.deepEqual(refusals(policy, { object: pod, namespaceLabels }), []);
  // The image the policy admits is the one SFD_IMAGE names, and no other registry's.
  const path = `sfd-sidecar/sfd-sidecar:${VERSION}@${digest}`;
  for (const other of [`ghcr.io/${path}`, `mirror.example.internal:5000/${path}`, `evil.example/ghcr/${path}`]) {
    const elsewhere = structuredClone(pod);
    sidecarOf(elsewhere).image = other;
    t.true(
      refusals(policy, { object: elsewhere, namespaceLabels }).some((m) => /the chart's sidecar image/.test(m)),
      other,
    );
  }
  const unjudged = structuredClone(pod);
  delete unjudged.metadata.labels!.team;
  t.true(refusals(policy, { object: unjudged, namespaceLabels }).some((m) => /one the injector judges/.test(m)));
  t.true(refusals(policy, { object: pod, namespaceLabels: { env: 'prod' } }).some((m) => /injector judges/.test(m)));
});

test('with an entitlement policy, the API server refuses a reader signing as a profile not granted', async (t) => {
  const values = [
    'policy.entitlements[0].namespace=shop',
    'policy.entitlements[0].profiles={billing}',
    'policy.entitlements[1].namespace=shop',
    'policy.entitlements[1].serviceAccounts={checkout}',
    'policy.entitlements[1].profiles={orders}',
  ];
  const policy = renderedPolicy(...values);
  const judged = (pod: Pod, namespace = 'shop') => refusals(policy, { object: pod, namespace });
  const entitlement = /entitlement policy grants/;
  const as = async (account: string | undefined, annotations: Record<string, string>) => {
    const pod = await injected({ containers: [app()] }, annotations);
    if (account !== undefined) pod.spec.serviceAccountName = account;
    return pod;
  };

  t.deepEqual(judged(await as(undefined, { 'sfd-sidecar.io/profile': 'billing' })), [], 'granted to the namespace');
  t.deepEqual(judged(await as('checkout', { 'sfd-sidecar.io/profile': 'orders' })), [], 'granted to its account');
  const picker = await as('checkout', {
    'sfd-sidecar.io/profile': 'orders',
    'sfd-sidecar.io/allowed-profiles': 'billing, orders',
    'sfd-sidecar.io/profile-header': 'X-Pick',
  });
  t.deepEqual(judged(picker), [], 'every profile it may pick is granted');

  const refused = (pod: Pod, namespace?: string) => judged(pod, namespace).some((m) => entitlement.test(m));
  t.true(refused(await as(undefined, { 'sfd-sidecar.io/profile': 'orders' })), 'orders is the checkout account only');
  t.true(refused(await as('web', { 'sfd-sidecar.io/profile': 'payroll' })), 'payroll is granted to no one');
  t.true(refused(await as(undefined, { 'sfd-sidecar.io/profile': 'billing' }), 'bank'), 'another namespace');
  const widened = structuredClone(picker);
  envOf(widened).find((e) => e.name === 'SFD_ALLOWED_PROFILES')!.value = 'billing,orders,payroll';
  t.true(refused(widened), 'a profile it may pick per request is judged too');
  const blank = await as(undefined, { 'sfd-sidecar.io/profile': 'billing' });
  envOf(blank).find((e) => e.name === 'SFD_PROFILE')!.value = ' ';
  t.true(refused(blank), 'a blank profile is the default profile, which is not granted');
  const suffix = await as(undefined, { 'sfd-sidecar.io/profile': 'billing' });
  envOf(suffix).find((e) => e.name === 'SFD_PROFILE')!.value = 'billing,payroll';
  t.true(refused(suffix), 'a value that is no profile name matches no grant');
  const renamed = await as(undefined, { 'sfd-sidecar.io/profile': 'billing' });
  delete renamed.spec.serviceAccountName;
  renamed.spec.serviceAccount = 'checkout';
  envOf(renamed).find((e) => e.name === 'SFD_PROFILE')!.value = 'orders';
  t.deepEqual(judged(renamed), [], 'the older serviceAccount field names the account too');
  t.true(refused(await as(undefined, {}), 'bank'), 'in a namespace with no grants at all, nothing is granted');
});

test('with the per-profile layout, a reader mounts exactly the files of the profiles it signs with', async (t) => {
  const policy = renderedPolicy('keystore.layout=per-profile');
  const pod = await injected(
    { containers: [app()] },
    {
      'sfd-sidecar.io/profile': 'billing',
      'sfd-sidecar.io/allowed-profiles': 'billing,orders',
      'sfd-sidecar.io/profile-header': 'X-Pick',
    },
    ['--keystore-layout', 'per-profile'],
  );
  t.deepEqual(refusals(policy, { object: pod }), [], 'as injection writes it');
  const layout = /per-profile key store layout/;
  const keysOf = (p: Pod) => volumesOf(p).find((v) => v.name === 'sfd-sidecar-keystore')!.secret!;
  const changed = (change: (p: Pod) => void): boolean => {
    const copy = structuredClone(pod);
    change(copy);
    return refusals(policy, { object: copy }).some((m) => layout.test(m));
  };
  t.true(
    changed((p) => delete keysOf(p).items),
    'the whole Secret',
  );
  t.true(
    changed((p) => (keysOf(p).items as unknown[]).push({ key: 'payroll.json', path: 'payroll.json' })),
    'another profile',
  );
  t.true(
    changed((p) => (keysOf(p).items = [{ key: 'billing.json', path: 'billing.json' }])),
    'a profile it may pick is missing',
  );
  t.true(
    changed((p) => (keysOf(p).items as unknown[]).push({ key: '.json', path: '.json' })),
    'a file of no profile',
  );
  t.true(
    changed((p) => ((keysOf(p).items as { path: string }[])[0]!.path = 'orders.json')),
    'a file under another profile name',
  );
  t.true(
    refusals(policy, {
      object: (() => {
        const copy = structuredClone(pod);
        envOf(copy).push({ name: 'SFD_PROFILE', value: 'payroll' });
        return copy;
      })(),
    }).some((m) => /once each/.test(m)),
    'SFD_PROFILE given twice, the kubelet reading the last',
  );
});
