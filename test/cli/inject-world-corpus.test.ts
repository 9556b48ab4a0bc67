// `inject` and the webhook over manifests shaped as other projects write them (test/fixtures/world,
// whose README names the public examples each one follows): every file passes the independent checks
// of the corpus helper (kubectl reads the output and sees only the sidecar added, the schemas accept
// it, inject over its own output changes nothing, the webhook's patch applies), ends the way the table
// says, and says what a platform engineer needs to know.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import { CORPUS_INJECT_ARGS } from '../helpers/corpus-settings.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { kubeTool } from '../helpers/k8s-tools.js';
import { checkManifestFile, kubectlRead, type CorpusOutcome } from '../helpers/manifest-corpus.js';
import { REPO_ROOT } from '../helpers/tools.js';

const WORLD = join(REPO_ROOT, 'test/fixtures/world');
const world = (name: string): string => join(WORLD, name);
const inject = (...files: string[]) => runCli(['inject', ...CORPUS_INJECT_ARGS, ...files.map(world)]);

const EXPECTED: Record<string, CorpusOutcome> = {
  'anchors.yaml': 'injected',
  'argo-rollout.yaml': 'injected',
  'comments.yaml': 'injected',
  'concatenated.json': 'injected',
  'cronjob-native.yaml': 'injected',
  'deployment-list.json': 'injected',
  'deploymentconfig.yaml': 'injected',
  'duplicate-keys.yaml': 'injected',
  'empty-fields.yaml': 'injected',
  'flow-style-pod.yaml': 'injected',
  'host-network-merge-key.yaml': 'refused',
  'host-network-yaml11.yaml': 'refused',
  // Its istio-init container adds NET_ADMIN and NET_RAW, capabilities beyond the baseline profile.
  'istio-meshed.yaml': 'refused',
  'job-classic.yaml': 'refused',
  'keystore-mounted-by-app.yaml': 'refused',
  'knative-service.yaml': 'untouched',
  'linux-affinity.yaml': 'injected',
  'markers-and-documents.yaml': 'injected',
  'null-lists.yaml': 'injected',
  'no-final-newline.yaml': 'untouched',
  'octal-modes.yaml': 'injected',
  'pod-level-resources.yaml': 'refused',
  'privileged-init.yaml': 'refused',
  'replication-controller.yaml': 'injected',
  'shared-process-namespace.yaml': 'refused',
  'undeclared-ports.yaml': 'injected',
  'windows-affinity.yaml': 'refused',
  'windows.yaml': 'refused',
  'yaml-list.yaml': 'injected',
};

test('every manifest of the corpus passes the independent checks and ends as the table says', async (t) => {
  const files = readdirSync(WORLD).filter((name) => /\.(ya?ml|json)$/.test(name));
  t.deepEqual(files.sort(), Object.keys(EXPECTED).sort(), 'the table covers the corpus');
  const injector = await startInjectorStack(t);
  const kubectl = kubeTool('kubectl');
  for (const name of files) {
    const result = await checkManifestFile(world(name), { kubectl, injector, injectArgs: CORPUS_INJECT_ARGS });
    t.deepEqual(result.failures, [], name);
    t.is(result.outcome, EXPECTED[name]!, `${name}: ${result.detail ?? ''}`);
  }
});

test('a flow-style pod comes out readable by kubectl, its `:PORT` values quoted', async (t) => {
  const run = await inject('flow-style-pod.yaml');
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.includes('value: ":9090"'));
  t.not(await kubectlRead(kubeTool('kubectl'), run.stdout), null);
});

test('ports the application uses without declaring them move the sidecar, which says which and why', async (t) => {
  const run = await inject('undeclared-ports.yaml');
  t.is(run.code, 0, run.stderr);
  t.regex(
    run.stderr,
    /the signing port 8080 is named by the argument --port=8080 of container web: the sidecar uses 18082/,
  );
  t.regex(run.stderr, /the admin port 9090 is set by METRICS_LISTEN in the environment of container web/);
  t.true(
    run.stdout.includes('value: "127.0.0.1:18082"'),
    "18080 (the worker's --port 18080) and 18081 (the probe) are passed over too",
  );
});

test('a pod budget the sidecar does not fit is refused naming the numbers', async (t) => {
  const run = await inject('pod-level-resources.yaml');
  t.is(run.code, 1);
  t.regex(
    run.stderr,
    /Pod\/budget-full .*the pod requests 500m cpu in all \(spec.resources\); its containers request 500m/,
  );
  t.regex(run.stderr, /the pod's memory limit is 128Mi \(spec.resources\); the sidecar needs 192Mi/);
  t.notRegex(run.stderr, /error: Pod\/budget-with-room/);
});

test('Windows pods are refused naming how they say so; a custom resource is left alone with a word', async (t) => {
  const windows = await inject('windows.yaml');
  t.is(windows.code, 1);
  t.regex(windows.stderr, /Pod\/iis .*\(spec\.os\.name is windows\); the sidecar's image is Linux-only/);
  t.regex(windows.stderr, /Deployment\/win-webserver .*nodeSelector asks for kubernetes\.io\/os: windows/);
  const knative = await inject('knative-service.yaml');
  t.is(knative.code, 0);
  t.is(knative.stdout, readFileSync(world('knative-service.yaml'), 'utf8'));
  t.regex(
    knative.stderr,
    /left alone Service\/hello .*holds containers at spec\.template\.spec\.containers, but Service is not a kind/,
  );
});

test('every comment stays on the node it was written on', async (t) => {
  const run = await inject('comments.yaml');
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /# Runs the schema migration first\.\n\s+- name: migrate # keep in step with the app\n/);
  t.regex(run.stdout, /# How loud the logs are\.\n\s+- name: LOG_LEVEL\n\s+value: info # info in production\n/);
  t.regex(run.stdout, /- name: SFD_SIDECAR_URL\n.*\n\s+# Ports are in the Service\.\n/);
  t.true(run.stdout.startsWith('# Release 42 of the billing stack.\n'));
});

test('YAML 1.1 as kubectl reads it: yes, on and merge keys count; octal modes keep their value', async (t) => {
  for (const name of ['host-network-yaml11.yaml', 'host-network-merge-key.yaml']) {
    const run = await inject(name);
    t.is(run.code, 1, name);
    t.regex(run.stderr, /the pod uses the host network/, name);
  }
  const modes = await inject('octal-modes.yaml');
  t.is(modes.code, 0, modes.stderr);
  t.true(modes.stdout.includes('defaultMode: 0755'));
  t.true(modes.stdout.includes('defaultMode: 0o440'));
});

test('concatenated JSON objects come out as a stream that kubectl and inject both read', async (t) => {
  const run = await inject('concatenated.json');
  t.is(run.code, 0, run.stderr);
  t.is((await kubectlRead(kubeTool('kubectl'), run.stdout))?.length, 3);
  const again = await runCli(['inject', ...CORPUS_INJECT_ARGS, '-'], { input: run.stdout });
  t.is(again.code, 0, again.stderr);
  t.is(again.stdout, run.stdout);
});

test('an untouched file comes out byte for byte, without a final newline it never had', async (t) => {
  const run = await inject('no-final-newline.yaml');
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, readFileSync(world('no-final-newline.yaml'), 'utf8'));
});

test('no way to the keys: a shared process namespace, a mounted key Secret, a privileged container', async (t) => {
  const shared = await inject('shared-process-namespace.yaml');
  t.is(shared.code, 1);
  t.regex(shared.stderr, /shared-unknown-users .*container app must set securityContext\.runAsUser/);
  t.regex(shared.stderr, /container reloader adds the capability SYS_PTRACE/);
  t.notRegex(shared.stderr, /error: Pod\/shared-own-users/);
  const mounted = await inject('keystore-mounted-by-app.yaml');
  t.regex(mounted.stderr, /container app mounts volume keys, which holds the key store Secret/);
  t.regex(mounted.stderr, /container app reads the key store Secret sfd-keys into its environment/);
  const privileged = await inject('privileged-init.yaml');
  t.regex(privileged.stderr, /container sysctl is privileged/);
});

test('a user id left to the platform (OpenShift) leaves runAsUser out; with no upstream inject says so', async (t) => {
  const run = await runCli(['inject', '--keystore-secret', 'sfd-keys', world('deploymentconfig.yaml')]);
  t.is(run.code, 0, run.stderr);
  const sidecar = /- name: sfd-sidecar\n[\s\S]*?securityContext:\n([\s\S]*?)\n\s+resources:/.exec(run.stdout)?.[1];
  t.truthy(sidecar);
  t.regex(sidecar!, /runAsNonRoot: true/);
  t.notRegex(sidecar!, /runAsUser|runAsGroup/);
  t.regex(run.stderr, /note: no upstream was given .*every key store profile these pods use must name its upstreamUrl/);
});
