// The hostile pods of the attack and policy tests, replayed through a real API server with the chart
// installed and an entitlement policy in force (billing for the shop namespace's checkout account):
// each is refused while the injector answers, and still refused while none answers under the chart's
// default failurePolicy Ignore, by the admission policy alone. On every pod the API server accepts as
// a valid Pod, the model of the API server's CEL that the other tiers use decides as the server does.
import test from 'ava';
import { parse } from 'yaml';
import type { BoundPolicy, PolicyBinding } from '../helpers/admission-bindings.js';
import type { PolicySpec } from '../helpers/admission-policy.js';
import { admitPod } from '../helpers/admission-chain.js';
import { runCli } from '../helpers/cli-process.js';
import { installChart, RELEASE, RELEASE_NAMESPACE, type InstalledChart } from '../helpers/cluster/installed-chart.js';
import { freshNamespace, getJson, kubectl, kubectlOk } from '../helpers/cluster/kube.js';
import { CARRIED_ATTACKS, POLICY_ATTACKS, type Pod } from '../helpers/hostile-pods.js';
import { DEFAULTS } from '../helpers/injection.js';

const VALUES = [
  'webhook.excludeNamespaces={legacy}',
  'policy.entitlements[0].namespace=shop',
  'policy.entitlements[0].serviceAccounts={checkout}',
  'policy.entitlements[0].profiles={billing}',
];

let chart: InstalledChart;
let policy: BoundPolicy;
const namespaces = new Map<string, string>();

test.before(async () => {
  chart = await installChart(VALUES);
  const name = `${RELEASE}-keystore-mounts`;
  const bindings = await getJson<{ items: (PolicyBinding & { spec: { policyName: string } })[] }>([
    'get',
    'validatingadmissionpolicybindings',
  ]);
  policy = {
    policy: (await getJson<{ spec: PolicySpec }>(['get', 'validatingadmissionpolicy', name])).spec,
    bindings: bindings.items.filter((b) => b.spec.policyName === name),
  };
  // The account every hostile pod runs as, in each namespace they are tried in.
  for (const namespace of [
    await freshNamespace('legacy'),
    await freshNamespace('shop'),
    'kube-system',
    RELEASE_NAMESPACE,
  ])
    await kubectl(['-n', namespace, 'create', 'serviceaccount', 'checkout']);
});
test.after.always(() => chart?.uninstall());

/** A namespace with these labels, made once; `shop` itself when there are none. */
async function namespaceLabelled(labels: Record<string, string> | undefined): Promise<string> {
  const key = JSON.stringify(labels ?? {});
  if (key === '{}') return 'shop';
  if (!namespaces.has(key)) {
    const name = await freshNamespace(`shop-${namespaces.size}`, labels);
    await kubectlOk(['-n', name, 'create', 'serviceaccount', 'checkout']);
    namespaces.set(key, name);
  }
  return namespaces.get(key)!;
}

/** The pod `inject` prints for the checkout account, signing as billing. */
async function injected(): Promise<Pod> {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { 'sfd-sidecar.io/inject': 'true' } },
    spec: {
      serviceAccountName: 'checkout',
      containers: [{ name: 'web', image: 'example/web:1', securityContext: { runAsUser: 1000 } }],
    },
  };
  const printed = await runCli(
    ['inject', '--keystore-secret', 'sfd-keys', '--profile', 'billing', '--image', DEFAULTS.image, '-'],
    { input: JSON.stringify(pod) },
  );
  if (printed.code !== 0) throw new Error(printed.stderr);
  return parse(printed.stdout) as Pod;
}

interface Verdict {
  readonly admitted: boolean;
  /** The API server refused the object itself, before admission judged it. */
  readonly invalid: boolean;
  readonly message: string;
}

/** The API server's answer to creating the pod (a dry run). */
async function serverVerdict(pod: Pod, namespace: string): Promise<Verdict> {
  const tried = await kubectl(['-n', namespace, 'create', '--dry-run=server', '-f', '-'], JSON.stringify(pod));
  return {
    admitted: tried.code === 0,
    invalid:
      /is invalid:|\(Invalid\)|Unsupported value|Required value/.test(tried.stderr) && !/denied/.test(tried.stderr),
    message: tried.stderr,
  };
}

const attacks = [
  ...POLICY_ATTACKS.map(([title, change, , input]) => ({
    title,
    change,
    namespace: input?.namespace,
    labels: input?.namespaceLabels,
  })),
  ...CARRIED_ATTACKS.map(([title, change]) => ({ title, change, namespace: undefined, labels: undefined })),
];

test.serial('while the injector answers, every hostile pod is refused and the injected pod admitted', async (t) => {
  const base = await injected();
  t.true((await serverVerdict(base, 'shop')).admitted, 'the pod inject printed');
  for (const attack of attacks) {
    const pod = structuredClone(base);
    attack.change(pod);
    const namespace = attack.namespace ?? (await namespaceLabelled(attack.labels));
    const verdict = await serverVerdict(pod, namespace);
    t.false(verdict.admitted, `${attack.title}: admitted`);
  }
});

test.serial(
  'while no injector answers (failurePolicy Ignore), the policy alone refuses them as the model does',
  async (t) => {
    await chart.stopInjector();
    t.teardown(() => chart.startInjector());
    const base = await injected();
    let judged = 0;
    for (const attack of [
      { title: 'the pod inject printed', change: () => undefined, namespace: undefined, labels: undefined },
      ...attacks,
    ]) {
      const pod = structuredClone(base);
      attack.change(pod);
      const namespace = attack.namespace ?? (await namespaceLabelled(attack.labels));
      const verdict = await serverVerdict(pod, namespace);
      if (verdict.invalid) {
        t.log(`${attack.title}: the API server refuses it as an invalid Pod`);
        continue;
      }
      judged += 1;
      const labels = (await getJson<{ metadata: { labels?: Record<string, string> } }>(['get', 'namespace', namespace]))
        .metadata.labels;
      // The model's chain with no webhook answering: the API's defaults, the ServiceAccount plugin, the policy.
      const chain = admitPod(pod, {
        namespace,
        namespaceLabels: labels ?? {},
        webhooks: [],
        injector: { defaults: DEFAULTS },
        admissionPolicy: policy,
      });
      const model = chain.allowed ? [] : chain.messages;
      t.is(
        verdict.admitted,
        model.length === 0,
        `${attack.title}: server ${verdict.message || 'admits'}; model ${model.join('; ') || 'admits'}`,
      );
      if (verdict.admitted) t.log(`${attack.title}: admitted by the policy alone (the webhook's rule only)`);
      if (!verdict.admitted && model.length > 0)
        t.true(
          model.some((message) => verdict.message.replace(/\s+/g, ' ').includes(message.replace(/\s+/g, ' '))),
          `${attack.title}: ${verdict.message}`,
        );
    }
    t.true(judged >= attacks.length - 5, `${judged} pods judged by the policy alone`);
  },
);
