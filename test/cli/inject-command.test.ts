// `sfd-sidecar inject` over a corpus of realistic manifests: every workload's pod template gets the
// sidecar (checked against the Kubernetes schemas and the workload checks), every other document and
// field is left as it came, what was decided is said on stderr, and a workload that cannot be injected
// is named with exit 1 and nothing on stdout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parseAllDocuments } from 'yaml';
import { runCli, type Finished } from '../helpers/cli-process.js';
import { validateObject, type K8sObject } from '../helpers/k8s-tools.js';
import { REPO_ROOT } from '../helpers/tools.js';
import { checkSidecarPod } from '../helpers/workload-checks.js';

const CORPUS = join(REPO_ROOT, 'test/fixtures/manifests');
const fixture = (name: string): string => join(CORPUS, name);
const inject = (...args: string[]): Promise<Finished> => runCli(['inject', '--keystore-secret', 'sfd-keys', ...args]);

type Template = { metadata?: { annotations?: Record<string, string> }; spec: Parameters<typeof checkSidecarPod>[1] };
const TEMPLATE: Record<string, (o: K8sObject) => Template> = {
  Pod: (o) => o as unknown as Template,
  CronJob: (o) =>
    (o as unknown as { spec: { jobTemplate: { spec: { template: Template } } } }).spec.jobTemplate.spec.template,
};
const templateOf = (object: K8sObject): Template =>
  (TEMPLATE[object.kind] ?? ((o) => (o as unknown as { spec: { template: Template } }).spec.template))(object);

function objectsOf(stdout: string): K8sObject[] {
  if (/^\s*\{/.test(stdout) && !stdout.includes('\n---\n')) {
    const value = JSON.parse(stdout) as K8sObject & { items?: K8sObject[] };
    return value.kind === 'List' ? value.items! : [value];
  }
  return parseAllDocuments(stdout).map((d) => d.toJS() as K8sObject);
}

/** Every object is valid; those with a pod template carry one sidecar that passes the workload checks. */
function checkOutput(
  t: Parameters<typeof checkSidecarPod>[0],
  stdout: string,
  expectInjected: Record<string, 'native' | 'classic'>,
): K8sObject[] {
  const objects = objectsOf(stdout);
  for (const object of objects) {
    t.notThrows(() => validateObject(object), `${object.kind}/${object.metadata.name} is valid`);
    const mode = expectInjected[`${object.kind}/${object.metadata.name}`];
    if (mode) {
      const spec = templateOf(object).spec;
      checkSidecarPod(t, spec, mode);
      t.is([...(spec.initContainers ?? []), ...spec.containers].filter((c) => c.name === 'sfd-sidecar').length, 1);
    }
  }
  return objects;
}

test(
  'an application on 8080: the sidecar moves to 18080 and says so; the Service and the comments are left as they ' +
    'were',
  async (t) => {
    const run = await inject(fixture('deployment-app-on-8080.yaml'));
    t.is(run.code, 0, run.stderr);
    t.regex(run.stderr, /injected Deployment\/billing in namespace billing/);
    t.regex(run.stderr, /note: the signing port 8080 is declared by container app: the sidecar uses 18080/);
    const [deployment] = checkOutput(t, run.stdout, { 'Deployment/billing': 'native' });
    const app = templateOf(deployment!).spec.containers.find((c) => c.name === 'app')!;
    t.deepEqual(app.env, [
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'SFD_SIDECAR_URL', value: 'http://127.0.0.1:18080' },
    ]);
    t.true(run.stdout.includes('image: example/billing:1.2 # pinned by the release'));
    const source = readFileSync(fixture('deployment-app-on-8080.yaml'), 'utf8');
    t.true(run.stdout.endsWith(source.slice(source.indexOf('---'))), 'the Service document, byte for byte');
  },
);

test(
  'existing init containers, a pod security context, an ' +
    'app on the admin port and its own prometheus ' +
    'annotations',
  async (t) => {
    const run = await inject(fixture('statefulset-init-and-security.yaml'));
    t.is(run.code, 0, run.stderr);
    const [statefulSet] = checkOutput(t, run.stdout, { 'StatefulSet/ledger': 'native' });
    const template = templateOf(statefulSet!);
    t.deepEqual(
      template.spec.initContainers!.map((c) => c.name),
      ['sfd-sidecar', 'migrate'],
    );
    t.regex(run.stderr, /the admin port 9090 is declared by container ledger: the sidecar uses 19090/);
    t.regex(run.stderr, /prometheus\.io annotations are left as they are/);
    t.is(template.metadata?.annotations?.['prometheus.io/port'], '9100');
    t.like(template.metadata?.annotations, {
      'sfd-sidecar.io/profile': 'payroll',
      'sfd-sidecar.io/status': 'injected',
    });
  },
);

test('a host-network DaemonSet is refused by name, with exit 1 and nothing on stdout', async (t) => {
  const run = await inject(fixture('daemonset-host-network.yaml'));
  t.is(run.code, 1);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    /error: DaemonSet\/node-agent \(.*daemonset-host-network\.yaml, document 1\): the pod uses the host network/,
  );
});

test('a classic CronJob is refused naming native mode; a Job in JSON with its own Secret; a List', async (t) => {
  const cron = await inject(fixture('cronjob-classic.yaml'));
  t.is(cron.code, 1, 'a classic sidecar never exits, so the Job would never complete');
  t.is(cron.stdout, '');
  t.regex(cron.stderr, /error: CronJob\/nightly-report .*restartPolicy OnFailure.*sfd-sidecar\.io\/mode: native/);
  const job = await inject(fixture('job.json'));
  t.is(job.code, 0, job.stderr);
  const [jobObject] = checkOutput(t, job.stdout, { 'Job/backfill': 'native' });
  t.like(templateOf(jobObject!).spec.volumes![0], { secret: { secretName: 'backfill-keys' } });
  const list = await inject(fixture('list.json'));
  t.is(list.code, 0, list.stderr);
  const [replicaSet, configMap] = checkOutput(t, list.stdout, { 'ReplicaSet/legacy': 'native' });
  t.is(replicaSet!.kind, 'ReplicaSet');
  t.deepEqual(configMap, (JSON.parse(readFileSync(fixture('list.json'), 'utf8')) as { items: unknown[] }).items[1]);
});

test(
  'a bare Pod is injected, a workload annotated ' + '"false" is left alone, and a ConfigMap passes ' + 'through',
  async (t) => {
    const run = await inject(fixture('pods-and-opt-out.yaml'));
    t.is(run.code, 0, run.stderr);
    t.regex(run.stderr, /injected Pod\/debug/);
    t.regex(
      run.stderr,
      /left alone Deployment\/opted-out \(.*, document 2\): annotation sfd-sidecar\.io\/inject: "false"/,
    );
    const objects = checkOutput(t, run.stdout, { 'Pod/debug': 'native' });
    t.false(JSON.stringify(objects.find((o) => o.metadata.name === 'opted-out')).includes('sfd-sidecar"'));
    t.true(
      run.stdout.endsWith(
        '# A ConfigMap, which has no pod template.\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ' +
          'untouched\ndata:\n  key: "value # not a comment"\n',
      ),
    );
  },
);

test('an unknown sfd-sidecar.io annotation is an error naming it and the workload', async (t) => {
  const run = await inject(fixture('unknown-annotation.yaml'));
  t.is(run.code, 1);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    /error: Deployment\/typo .*: unknown annotation sfd-sidecar\.io\/profle \(known: sfd-sidecar\.io\/inject,/,
  );
});

test('injecting twice adds one sidecar: the output injected again is the same text', async (t) => {
  const first = await inject(fixture('deployment-app-on-8080.yaml'), fixture('pods-and-opt-out.yaml'));
  t.is(first.code, 0, first.stderr);
  const again = await pipe(['inject', '--keystore-secret', 'sfd-keys', '-'], first.stdout);
  t.is(again.code, 0, again.stderr);
  t.is(again.stdout, first.stdout);
  t.regex(
    again.stderr,
    /left alone Deployment\/billing in namespace billing \(stdin, document 1\): the sidecar is already in the pod/,
  );
});

test('several files at once, from standard input too; flags set the defaults', async (t) => {
  const run = await pipe(
    [
      'inject',
      '--keystore-secret',
      'shared-keys',
      '--profile',
      'reports',
      '--image',
      'registry.local/sfd-sidecar:9',
      '--sidecar-mode',
      'classic',
      fixture('statefulset-init-and-security.yaml'),
      '-',
    ],
    readFileSync(fixture('pods-and-opt-out.yaml'), 'utf8'),
  );
  t.is(run.code, 0, run.stderr);
  const objects = checkOutput(t, run.stdout, { 'StatefulSet/ledger': 'classic', 'Pod/debug': 'classic' });
  const sidecar = templateOf(objects[1]!).spec.containers[0]!;
  t.like(sidecar, { image: 'registry.local/sfd-sidecar:9' });
  t.true(JSON.stringify(sidecar.env).includes('{"name":"SFD_PROFILE","value":"reports"}'));
});

test('an object named by generateName is named by its prefix, as kubectl users know it', async (t) => {
  const job = [
    'apiVersion: batch/v1',
    'kind: Job',
    'metadata: {generateName: pi-}',
    'spec:',
    '  template:',
    '    spec:',
    '      restartPolicy: Never',
    '      containers: [{name: pi, image: "perl:5.34.0", command: [perl, "-Mbignum=bpi", -wle, "print bpi(2000)"]}]',
    '',
  ].join('\n');
  const run = await pipe(['inject', '--keystore-secret', 'sfd-keys', '-'], job);
  t.is(run.code, 0, run.stderr);
  t.regex(run.stderr, /^injected Job\/pi-\* \(stdin, document 1\)$/m);
  const back = await pipe(['uninject', '-'], run.stdout);
  t.regex(back.stderr, /^took the sidecar out of Job\/pi-\* \(stdin, document 1\)$/m);
});

test('without a file, or with a bad setting, inject says how it is used', async (t) => {
  const bare = await runCli(['inject']);
  t.is(bare.code, 2);
  t.regex(bare.stderr, /usage: sfd-sidecar inject/);
  const bad = await runCli(['inject', '--sidecar-mode', 'ambient', fixture('job.json')]);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /SFD_SIDECAR_MODE \(from the flag\): must be one of native, classic/);
});

function pipe(args: readonly string[], input: string): Promise<Finished> {
  return runCli(args, { input });
}

test('a value the kubelet would expand is refused, from an annotation or a flag', async (t) => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', annotations: { 'sfd-sidecar.io/upstream-url': 'https://gw.example.com/$(HOSTNAME)' } },
    spec: { containers: [{ name: 'web', image: 'example/web:1' }] },
  };
  const annotated = await runCli(['inject', '--keystore-secret', 'sfd-keys', '-'], { input: JSON.stringify(pod) });
  t.is(annotated.code, 1);
  t.is(annotated.stdout, '');
  t.regex(annotated.stderr, /annotation sfd-sidecar\.io\/upstream-url: holds "\$\(", which the kubelet expands/);
  delete (pod.metadata as { annotations?: unknown }).annotations;
  const flagged = await runCli(
    ['inject', '--keystore-secret', 'sfd-keys', '--upstream-url', 'https://gw.example.com/$(HOSTNAME)', '-'],
    { input: JSON.stringify(pod) },
  );
  t.is(flagged.code, 1);
  t.regex(flagged.stderr, /SFD_UPSTREAM_URL: holds "\$\(", which the kubelet expands/);
});
