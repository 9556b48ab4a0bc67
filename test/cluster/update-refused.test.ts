// A running pod's container image is the one field of a container an UPDATE may change; for a
// container that reads the key store (the sidecar) the admission policy refuses it, on a real API
// server, whether or not the injector answers, and says why. The application's own image may change.
import test from 'ava';
import { policyDenial } from '../helpers/cluster/denials.js';
import { installChart, type InstalledChart } from '../helpers/cluster/installed-chart.js';
import { freshNamespace, getJson, kubectl, kubectlOk, type Ran } from '../helpers/cluster/kube.js';

interface Container {
  name: string;
  image: string;
}

interface Pod {
  spec: { containers: Container[]; initContainers?: Container[] };
}

const REFUSED = policyDenial('the image of a container that reads the key store cannot change');

let chart: InstalledChart;
let namespace: string;
test.before(async () => {
  chart = await installChart();
  namespace = await freshNamespace('sfd-update');
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { 'sfd-sidecar.io/inject': 'true' } },
    spec: { containers: [{ name: 'web', image: 'example/web:1' }] },
  };
  await kubectlOk(['-n', namespace, 'create', '-f', '-'], JSON.stringify(pod));
});
test.after.always(() => chart?.uninstall());

const imageOf = async (name: string): Promise<string> => {
  const pod = await getJson<Pod>(['-n', namespace, 'get', 'pod', 'web']);
  return [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c) => c.name === name)!.image;
};

/** The ways a user changes a running pod's image: kubectl set image, patch, and replace. */
const CHANGES: Record<string, (image: string) => Promise<Ran>> = {
  'kubectl set image': (image) => kubectl(['-n', namespace, 'set', 'image', 'pod/web', `sfd-sidecar=${image}`]),
  'kubectl patch': (image) =>
    kubectl([
      '-n',
      namespace,
      'patch',
      'pod',
      'web',
      '--type=json',
      '-p',
      JSON.stringify([{ op: 'replace', path: '/spec/initContainers/0/image', value: image }]),
    ]),
  'kubectl replace': async (image) => {
    const pod = await getJson<Pod>(['-n', namespace, 'get', 'pod', 'web']);
    pod.spec.initContainers!.find((c) => c.name === 'sfd-sidecar')!.image = image;
    return kubectl(['-n', namespace, 'replace', '-f', '-'], JSON.stringify(pod));
  },
};

for (const [how, change] of Object.entries(CHANGES)) {
  test.serial(`${how} of the sidecar's image is refused with the policy's message`, async (t) => {
    const before = await imageOf('sfd-sidecar');
    const changed = await change('example.org/other-sidecar:9.9.9');
    t.not(changed.code, 0);
    t.regex(changed.stderr, REFUSED);
    t.regex(changed.stderr, /pods "web" is forbidden: /);
    t.log(`${how}: ${changed.stderr.trim()}`);
    t.is(await imageOf('sfd-sidecar'), before);
  });
}

test.serial("while no injector answers the policy still refuses it; the application's image may change", async (t) => {
  await chart.stopInjector();
  t.teardown(() => chart.startInjector());
  const sidecar = await CHANGES['kubectl set image']!('example.org/other-sidecar:9.9.9');
  t.regex(sidecar.stderr, REFUSED);
  const application = await kubectl(['-n', namespace, 'set', 'image', 'pod/web', 'web=example/web:2']);
  t.is(application.code, 0, application.stderr);
  t.is(await imageOf('web'), 'example/web:2');
});
