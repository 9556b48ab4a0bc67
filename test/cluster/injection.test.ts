// Every pod that asks gets its sidecar on a real API server, through its whole admission chain: the
// ServiceAccount plugin's token mount, the webhook, the plugin again and the webhook reinvoked, then
// the admission policy. Asked by the pod's label, by its namespace's label, through a Deployment, and
// as `inject` printed it; with the default token and without. Where each decision shows is checked as
// a user would look: kubectl's warnings for a Pod, the decision annotation, the ReplicaSet's events.
import test from 'ava';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import { installChart, type InstalledChart } from '../helpers/cluster/installed-chart.js';
import { clusterTarget, freshNamespace, getJson, kubectl, watchUntil } from '../helpers/cluster/kube.js';
import { deploymentOf } from '../helpers/cluster/workloads.js';
import type { Container, PodTemplate } from '../../src/injection/pod.js';

type Pod = PodTemplate & { metadata: { name: string; annotations?: Record<string, string> } };

let chart: InstalledChart;
test.before(async () => {
  chart = await installChart();
});
test.after.always(() => chart?.uninstall());

const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const pod = (
  name: string,
  extra: { labels?: Record<string, string>; annotations?: Record<string, string>; automount?: boolean } = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    labels: extra.labels ?? { 'sfd-sidecar.io/inject': 'true' },
    ...(extra.annotations ? { annotations: extra.annotations } : {}),
  },
  spec: {
    ...(extra.automount === undefined ? {} : { automountServiceAccountToken: extra.automount }),
    containers: [{ name: 'web', image: 'example/web:1' }],
  },
});

async function create(namespace: string, object: object) {
  return kubectl(['-n', namespace, 'create', '-f', '-'], JSON.stringify(object));
}

const containersOf = (p: Pod): Container[] => [...(p.spec.initContainers ?? []), ...p.spec.containers];
const sidecarOf = (p: Pod) => containersOf(p).find((c) => c.name === 'sfd-sidecar');
const mountsAt = (c: Container | undefined, path: string) =>
  (c?.volumeMounts ?? []).filter((m) => m.mountPath === path).map((m) => m.name);

for (const automount of [undefined, false]) {
  const token = automount === undefined ? 'with the default token' : 'with automount off';
  test(`a pod labelled to ask gets the sidecar, which holds no token (${token})`, async (t) => {
    const namespace = await freshNamespace(`sfd-label-${automount === undefined ? 'token' : 'none'}`);
    const created = await create(namespace, pod('web', { automount }));
    t.is(created.code, 0, created.stderr);
    const admitted = await getJson<Pod>(['-n', namespace, 'get', 'pod', 'web']);
    const sidecar = sidecarOf(admitted);
    t.truthy(sidecar, 'the sidecar is in the pod');
    t.deepEqual(mountsAt(sidecar, TOKEN_PATH), ['sfd-sidecar-no-token']);
    const app = admitted.spec.containers.find((c) => c.name === 'web');
    t.is(mountsAt(app, TOKEN_PATH).length, automount === false ? 0 : 1, "the app keeps the pod's own token");
    t.is(admitted.metadata.annotations?.['sfd-sidecar.io/decision'], 'injected');
  });
}

test('a pod of a namespace labelled enabled gets the sidecar without a label of its own', async (t) => {
  const namespace = await freshNamespace('sfd-namespace-asks', { 'sfd-sidecar.io/inject': 'enabled' });
  const created = await create(namespace, pod('web', { labels: { app: 'web' } }));
  t.is(created.code, 0, created.stderr);
  t.truthy(sidecarOf(await getJson<Pod>(['-n', namespace, 'get', 'pod', 'web'])));
});

test("inject's output is admitted as it is, with the default token and without", async (t) => {
  const namespace = await freshNamespace('sfd-offline');
  for (const [name, automount] of [
    ['with-token', undefined],
    ['without-token', false],
  ] as const) {
    const printed = await runCli(['inject', '--keystore-secret', 'sfd-keys', '-'], {
      input: JSON.stringify(pod(name, { labels: { app: name }, automount })),
    });
    t.is(printed.code, 0, printed.stderr);
    const created = await create(namespace, parse(printed.stdout) as object);
    t.is(created.code, 0, created.stderr);
    const admitted = await getJson<Pod>(['-n', namespace, 'get', 'pod', name]);
    t.is(admitted.metadata.annotations?.['sfd-sidecar.io/decision'], 'skipped: already-injected', name);
    t.deepEqual(mountsAt(sidecarOf(admitted), TOKEN_PATH), ['sfd-sidecar-no-token'], name);
  }
});

test('settings from both a ConfigMap and a Secret draw no warning of a variable given twice', async (t) => {
  const namespace = await freshNamespace('sfd-settings-objects');
  const annotations = { 'sfd-sidecar.io/env-config-map': 'settings', 'sfd-sidecar.io/env-secret': 'credentials' };
  const created = await create(namespace, pod('web', { annotations }));
  t.is(created.code, 0, created.stderr);
  t.notRegex(created.stderr, /hides previous definition/);
  const names = (sidecarOf(await getJson<Pod>(['-n', namespace, 'get', 'pod', 'web']))?.env ?? []).map((e) => e.name);
  t.is(new Set(names).size, names.length);
});

test("the webhook's warnings reach kubectl for a Pod it creates", async (t) => {
  const namespace = await freshNamespace('sfd-warnings');
  const created = await create(namespace, pod('web', { annotations: { 'sfd-sidecar.io/profle': 'billing' } }));
  t.is(created.code, 0, created.stderr);
  t.regex(created.stderr, /Warning: sfd-sidecar: unknown annotation sfd-sidecar\.io\/profle; it is ignored/);
});

if (clusterTarget().controllers) {
  test("a Deployment's pods get the sidecar; a refused pod's reason is on its ReplicaSet's events", async (t) => {
    const namespace = await freshNamespace('sfd-deployment', { 'sfd-sidecar.io/inject': 'enabled' });
    const created = await create(
      namespace,
      deploymentOf('web', { containers: [{ name: 'web', image: 'example/web:1' }] }),
    );
    t.is(created.code, 0, created.stderr);
    t.notRegex(created.stderr, /Warning: sfd-sidecar/, "kubectl sees the Deployment's admission only");
    const made = await watchUntil<Pod>(
      'the Deployment to make its pod',
      ['-n', namespace, 'pods', '-l', 'app=web'],
      () => true,
    );
    t.truthy(sidecarOf(made));
    t.is(made.metadata.annotations?.['sfd-sidecar.io/decision'], 'injected');

    // Asked by its own label, a pod the sidecar cannot serve is refused (its namespace alone would
    // leave it without the sidecar, with a warning).
    const refused = deploymentOf(
      'on-host',
      { hostNetwork: true, containers: [{ name: 'web', image: 'example/web:1' }] },
      { 'sfd-sidecar.io/inject': 'true' },
    );
    t.is((await create(namespace, refused)).code, 0);
    const failed = await watchUntil<{ reason: string; message: string; involvedObject: { kind: string } }>(
      "the ReplicaSet's FailedCreate event",
      ['-n', namespace, 'events'],
      (event) => event.reason === 'FailedCreate',
    );
    t.is(failed.involvedObject.kind, 'ReplicaSet');
    t.regex(
      failed.message,
      /admission webhook "(pods|namespaces)\.sfd-sidecar\.sfd-sidecar\.io" denied the request: sfd-sidecar cannot/,
    );
    t.regex(failed.message, /host network/);
  });
}
