// The Helm chart, validated offline: helm lint --strict and helm template for every ci/*-values.yaml,
// every rendered object checked against the Kubernetes schemas, and the checks that matter here.
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parseAllDocuments, parse } from 'yaml';
import { kubeTool, validateObject, type K8sObject } from '../helpers/k8s-tools.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';
import { checkSidecarWorkload } from '../helpers/workload-checks.js';

const CHART = 'helm/sfd-sidecar';
const scenarios = readdirSync(join(REPO_ROOT, CHART, 'ci')).filter((f) => f.endsWith('-values.yaml'));

function render(args: string[]): { objects: K8sObject[]; code: number | null; stderr: string } {
  const result = runTool(kubeTool('helm'), ['template', 'release', CHART, ...args]);
  const objects = result.code === 0 ? parseAllDocuments(result.stdout).map((d) => d.toJS() as K8sObject).filter((o) => o !== null) : [];
  return { objects, code: result.code, stderr: result.stderr };
}

test('the chart ships one scenario per case', (t) => {
  t.deepEqual(scenarios.sort(), ['classic-values.yaml', 'existing-secret-values.yaml', 'monitoring-values.yaml', 'native-values.yaml', 'relay-values.yaml']);
});

for (const scenario of scenarios) {
  test(`${scenario}: helm lint --strict passes and every rendered object is valid and safe`, (t) => {
    const lint = runTool(kubeTool('helm'), ['lint', '--strict', CHART, '-f', join(CHART, 'ci', scenario)]);
    t.is(lint.code, 0, lint.stdout + lint.stderr);
    const { objects, code, stderr } = render(['-f', join(CHART, 'ci', scenario)]);
    t.is(code, 0, stderr);
    for (const object of objects) t.notThrows(() => validateObject(object), `${object.kind} ${object.metadata.name}`);
    const deployment = objects.find((o) => o.kind === 'Deployment')!;
    checkSidecarWorkload(t, deployment, scenario === 'classic-values.yaml' ? 'classic' : 'native');
    for (const service of objects.filter((o) => o.kind === 'Service')) {
      const ports = (service as unknown as { spec: { ports: { targetPort: string }[] } }).spec.ports;
      t.true(ports.every((p) => p.targetPort === 'admin' || p.targetPort === 'notify'), 'no Service reaches the signing port');
    }
  });
}

test('monitoring: the PrometheusRule and the dashboard are those of deploy/', (t) => {
  const { objects } = render(['-f', join(CHART, 'ci/monitoring-values.yaml')]);
  const rule = objects.find((o) => o.kind === 'PrometheusRule') as unknown as { spec: { groups: unknown } };
  t.deepEqual(rule.spec.groups, (parse(readFileSync(join(REPO_ROOT, 'deploy/prometheus/sfd-sidecar.rules.yaml'), 'utf8')) as { groups: unknown }).groups);
  const dashboard = objects.find((o) => o.kind === 'ConfigMap') as unknown as { data: Record<string, string> };
  t.deepEqual(JSON.parse(dashboard.data['sfd-sidecar-dashboard.json']!), JSON.parse(readFileSync(join(REPO_ROOT, 'deploy/grafana/sfd-sidecar-dashboard.json'), 'utf8')));
  t.truthy(objects.find((o) => o.kind === 'PodMonitor'));
  for (const file of ['sfd-sidecar.rules.yaml', 'sfd-sidecar-dashboard.json']) {
    const original = file.endsWith('.json') ? 'deploy/grafana/' : 'deploy/prometheus/';
    t.is(readFileSync(join(REPO_ROOT, CHART, 'files', file), 'utf8'), readFileSync(join(REPO_ROOT, original, file), 'utf8'), `${file} copy is current`);
  }
});

test('the relay scenario exposes the notify port with its Service, reads the token from a Secret and keeps invalid events in a capped volume', (t) => {
  const { objects } = render(['-f', join(CHART, 'ci/relay-values.yaml')]);
  const service = objects.find((o) => o.kind === 'Service' && o.metadata.name.endsWith('-notify'));
  t.truthy(service);
  const deployment = JSON.stringify(objects.find((o) => o.kind === 'Deployment'));
  t.true(deployment.includes('"name":"SFD_NOTIFY_TOKEN","valueFrom":{"secretKeyRef":{"name":"sfd-notify-token","key":"token"}}'));
  t.true(deployment.includes('{"name":"SFD_NOTIFY_DEAD_LETTER_DIR","value":"/var/lib/sfd-sidecar/dead-letter"},{"name":"SFD_NOTIFY_DEAD_LETTER_MAX_BYTES","value":"67108864"}'));
  t.true(deployment.includes('{"name":"sfd-dead-letter","mountPath":"/var/lib/sfd-sidecar/dead-letter"}'));
  t.true(deployment.includes('{"name":"sfd-dead-letter","emptyDir":{"sizeLimit":"128Mi"}}'));
  // Without the relay there is nothing to keep, whatever deadLetter says.
  const off = JSON.stringify(render(['-f', join(CHART, 'ci/relay-values.yaml'), '--set', 'notify.enabled=false']).objects);
  t.false(off.includes('sfd-dead-letter') || off.includes('SFD_NOTIFY_DEAD_LETTER'));
  // Another volume source replaces the emptyDir, which is set to null; left beside it, the schema says so.
  const values = (text: string): string => {
    const file = join(mkdtempSync(join(tmpdir(), 'sfd-values-')), 'values.yaml');
    writeFileSync(file, text);
    return file;
  };
  const pvc = render(['-f', join(CHART, 'ci/relay-values.yaml'), '-f', values('notify:\n  deadLetter:\n    volume:\n      emptyDir: null\n      persistentVolumeClaim:\n        claimName: letters\n')]);
  t.true(JSON.stringify(pvc.objects).includes('{"name":"sfd-dead-letter","persistentVolumeClaim":{"claimName":"letters"}}'), pvc.stderr);
  const both = render(['-f', join(CHART, 'ci/relay-values.yaml'), '-f', values('notify:\n  deadLetter:\n    volume:\n      persistentVolumeClaim:\n        claimName: letters\n')]);
  t.not(both.code, 0);
  t.regex(both.stderr, /notify\.deadLetter\.volume: Must have at most 1 properties/);
});

test('optional features are off by default, and the values schema refuses typos and bad values', (t) => {
  const defaults = render(['--set', 'keystore.existingSecret=keys']);
  t.is(defaults.code, 0, defaults.stderr);
  t.deepEqual(defaults.objects.map((o) => o.kind).sort(), ['Deployment', 'Pod', 'Service']);
  const typo = render(['--set', 'keystore.existingSecret=keys', '--set', 'sidecar.mod=classic']);
  t.not(typo.code, 0);
  t.regex(typo.stderr, /additional properties 'mod' not allowed|Additional property mod is not allowed/i);
  const mode = render(['--set', 'keystore.existingSecret=keys', '--set', 'sidecar.mode=ambient']);
  t.not(mode.code, 0);
  const secret = render([]);
  t.not(secret.code, 0);
  t.regex(secret.stderr, /keystore\.existingSecret is required/);
});

test('the shutdown delay: 5000 ms in classic mode, 0 in native mode, a set value wins, and a grace period that cannot cover it with the drain is refused', (t) => {
  const delay = (args: string[]): string | undefined => {
    const { objects, code, stderr } = render(['--set', 'keystore.existingSecret=keys', ...args]);
    t.is(code, 0, stderr);
    const env = JSON.stringify(objects.find((o) => o.kind === 'Deployment'));
    return /"name":"SFD_SHUTDOWN_DELAY_MS","value":"(\d+)"/.exec(env)?.[1];
  };
  t.is(delay(['--set', 'sidecar.mode=classic']), '5000');
  t.is(delay([]), '0');
  t.is(delay(['--set', 'sidecar.mode=classic', '--set', 'sidecar.shutdownDelayMs=0']), '0');
  t.is(delay(['--set', 'sidecar.shutdownDelayMs=2500']), '2500');
  const short = render(['--set', 'keystore.existingSecret=keys', '--set', 'sidecar.mode=classic', '--set', 'terminationGracePeriodSeconds=12']);
  t.not(short.code, 0);
  t.regex(short.stderr, /terminationGracePeriodSeconds \(12 s\) must cover sidecar\.shutdownDelayMs and sidecar\.shutdownTimeoutMs \(15000 ms in all\)/);
  const negative = render(['--set', 'keystore.existingSecret=keys', '--set', 'sidecar.shutdownDelayMs=-1']);
  t.not(negative.code, 0);
  t.regex(negative.stderr, /sidecar\.shutdownDelayMs/);
});

test('the egress proxy: its URL with credentials from a Secret, or without them as a value; credentials in values are refused', (t) => {
  const env = (args: string[]): unknown[] => {
    const { objects, code, stderr } = render(args);
    t.is(code, 0, stderr);
    const deployment = objects.find((o) => o.kind === 'Deployment') as unknown as { spec: { template: { spec: { initContainers?: { name: string; env: { name: string }[] }[] } } } };
    return deployment.spec.template.spec.initContainers!.find((c) => c.name === 'sfd-sidecar')!.env.filter((e) => e.name.startsWith('SFD_UPSTREAM_') && e.name.includes('PROXY'));
  };
  t.deepEqual(env(['-f', join(CHART, 'ci/existing-secret-values.yaml')]), [
    { name: 'SFD_UPSTREAM_PROXY', valueFrom: { secretKeyRef: { name: 'egress-proxy', key: 'url' } } },
    { name: 'SFD_UPSTREAM_NO_PROXY', value: '.svc,.cluster.local,10.0.0.0/8' },
  ]);
  t.deepEqual(env(['--set', 'keystore.existingSecret=keys', '--set', 'sidecar.egressProxy.url=http://proxy.corp:3128']), [{ name: 'SFD_UPSTREAM_PROXY', value: 'http://proxy.corp:3128' }]);
  t.deepEqual(env(['--set', 'keystore.existingSecret=keys']), [], 'none by default: the pod\'s HTTPS_PROXY, if any, applies');
  const inValues = render(['--set', 'keystore.existingSecret=keys', '--set', 'sidecar.egressProxy.url=http://user:pw@proxy.corp:3128']);
  t.not(inValues.code, 0);
  t.regex(inValues.stderr, /egressProxy\.url/);
});

test('NOTES warn when the chart creates the key store Secret', (t) => {
  // helm renders NOTES.txt only on install, which wants a cluster; rendering it with `tpl` in a copy of
  // the chart gives the same text offline.
  const copy = join(mkdtempSync(join(tmpdir(), 'sfd-chart-')), 'sfd-sidecar');
  cpSync(join(REPO_ROOT, CHART), copy, { recursive: true });
  cpSync(join(copy, 'templates/NOTES.txt'), join(copy, 'files/NOTES.txt'));
  writeFileSync(join(copy, 'templates/notes-as-configmap.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  notes: {{ tpl (.Files.Get "files/NOTES.txt") . | quote }}\n');
  const notesOf = (values: string): string => {
    const result = runTool(kubeTool('helm'), ['template', 'release', copy, '-f', join(CHART, 'ci', values), '--show-only', 'templates/notes-as-configmap.yaml']);
    t.is(result.code, 0, result.stderr);
    return (parse(result.stdout) as { data: { notes: string } }).data.notes;
  };
  t.regex(notesOf('native-values.yaml'), /WARNING: keystore\.create=true put the access keys in this release's values/);
  const production = notesOf('classic-values.yaml');
  t.notRegex(production, /WARNING/);
  t.regex(production, /Keys come from the Secret sfd-keys/);
});
