// Where the webhook's decision shows, as a user looks for it on a real API server. For a Pod created
// directly the client is the user's kubectl: it prints the webhook's warnings and its refusals. For a
// Deployment the client is the ReplicaSet controller: kubectl sees only the Deployment's admission, a
// warning about a pod reaches no event, and a refused pod shows only as a FailedCreate event on the
// ReplicaSet. Every pod the webhook admits carries its decision in its annotation. The texts seen are
// logged, for the docs to quote.
import test from 'ava';
import { policyDenial } from '../helpers/cluster/denials.js';
import { installChart, type InstalledChart } from '../helpers/cluster/installed-chart.js';
import { clusterTarget, freshNamespace, getJson, kubectl, watchUntil, type Ran } from '../helpers/cluster/kube.js';
import { deploymentOf } from '../helpers/cluster/workloads.js';

interface Pod {
  metadata: { name: string; annotations?: Record<string, string> };
}

interface Event {
  reason: string;
  message: string;
  involvedObject: { kind: string; name: string };
}

const DECISION = 'sfd-sidecar.io/decision';
const HOST_NETWORK_WARNING = new RegExp(
  'Warning: sfd-sidecar: Pod web in sfd-visible-pod was left without the sidecar: ' +
    'it cannot run the sidecar: the pod uses the host network',
);
const READS_KEYS = policyDenial('only the sfd-sidecar container may read the key store Secret');

let chart: InstalledChart;
test.before(async () => {
  chart = await installChart();
});
test.after.always(() => chart?.uninstall());

const create = (namespace: string, object: object): Promise<Ran> =>
  kubectl(['-n', namespace, 'create', '-f', '-'], JSON.stringify(object));

const podOf = (name: string, spec: object, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: name, ...labels } },
  spec,
});

const app = { containers: [{ name: 'web', image: 'example/web:1' }] };
const onHost = { hostNetwork: true, ...app };
const readsKeys = {
  containers: [{ name: 'web', image: 'example/web:1', volumeMounts: [{ name: 'keys', mountPath: '/keys' }] }],
  volumes: [{ name: 'keys', secret: { secretName: 'sfd-keys' } }],
};

test.serial('for a Pod created directly, kubectl prints the warning, and the pod records the decision', async (t) => {
  const namespace = await freshNamespace('sfd-visible-pod', { 'sfd-sidecar.io/inject': 'enabled' });
  const created = await create(namespace, podOf('web', onHost));
  t.is(created.code, 0, created.stderr);
  t.regex(created.stderr, HOST_NETWORK_WARNING);
  t.log(`kubectl create (skipped): ${created.stderr.trim()}`);
  const skipped = await getJson<Pod>(['-n', namespace, 'get', 'pod', 'web']);
  t.is(skipped.metadata.annotations?.[DECISION], 'skipped: host-network');

  const injected = await create(namespace, podOf('injected', app));
  t.is(injected.code, 0, injected.stderr);
  const admitted = await getJson<Pod>(['-n', namespace, 'get', 'pod', 'injected']);
  t.is(admitted.metadata.annotations?.[DECISION], 'injected');
});

test.serial('for a Pod created directly, kubectl prints the refusal naming the webhook', async (t) => {
  const namespace = await freshNamespace('sfd-visible-refused');
  const refused = await create(namespace, podOf('web', onHost, { 'sfd-sidecar.io/inject': 'true' }));
  t.not(refused.code, 0);
  t.regex(
    refused.stderr,
    /admission webhook "pods\.sfd-sidecar\.sfd-sidecar\.io" denied the request: sfd-sidecar cannot/,
  );
  t.log(`kubectl create (refused by the webhook): ${refused.stderr.trim()}`);
  const forbidden = await create(namespace, podOf('reader', readsKeys));
  t.not(forbidden.code, 0);
  t.regex(
    forbidden.stderr,
    /Error from server \(Forbidden\): error when creating "STDIN": pods "reader" is forbidden: /,
  );
  t.regex(forbidden.stderr, READS_KEYS);
  t.log(`kubectl create (refused by the policy): ${forbidden.stderr.trim()}`);
});

const controllers = clusterTarget().controllers;
const withControllers = controllers ? test.serial : test.serial.skip;
const NEEDS = controllers ? '' : ' (skipped: needs kube-controller-manager, absent from KUBEBUILDER_ASSETS)';

withControllers(
  `for a Deployment, kubectl sees no warning of its pods; the pod records the decision${NEEDS}`,
  async (t) => {
    const namespace = await freshNamespace('sfd-visible-deployment', { 'sfd-sidecar.io/inject': 'enabled' });
    const created = await create(namespace, deploymentOf('on-host', onHost));
    t.is(created.code, 0, created.stderr);
    t.notRegex(created.stderr, /Warning/, "kubectl sees the Deployment's admission only");
    const made = await watchUntil<Pod>(
      'the Deployment to make its pod',
      ['-n', namespace, 'pods', '-l', 'app=on-host'],
      () => true,
    );
    t.is(made.metadata.annotations?.[DECISION], 'skipped: host-network');
    const events = await getJson<{ items: Event[] }>(['-n', namespace, 'get', 'events']);
    t.false(
      events.items.some((e) => /sfd-sidecar/.test(e.message)),
      `the warning is in no event: ${events.items.map((e) => e.message).join('; ')}`,
    );
  },
);

withControllers(
  `for a Deployment, a pod the policy refuses is a FailedCreate event on its ReplicaSet${NEEDS}`,
  async (t) => {
    const namespace = await freshNamespace('sfd-visible-failed');
    const created = await create(namespace, deploymentOf('reader', readsKeys));
    t.is(created.code, 0, created.stderr);
    t.notRegex(created.stderr, /Warning|forbidden/, 'kubectl sees the Deployment admitted');
    // The documented command: kubectl -n NS get events --field-selector reason=FailedCreate.
    const failed = await watchUntil<Event>(
      "the ReplicaSet's FailedCreate event",
      ['-n', namespace, 'events', '--field-selector', 'reason=FailedCreate'],
      () => true,
    );
    t.is(failed.involvedObject.kind, 'ReplicaSet');
    t.regex(failed.involvedObject.name, /^reader-/);
    t.regex(
      failed.message,
      /^(\(combined from similar events\): )?Error creating: pods "reader-[a-z0-9-]+" is forbidden: /,
    );
    t.regex(failed.message, READS_KEYS);
    t.log(`FailedCreate: ${failed.message}`);
  },
);
