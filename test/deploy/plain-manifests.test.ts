// deploy/ for users without the webhook: the kustomize Component adds the same sidecar as `inject`
// with a strategic-merge patch (lists merged by name), the example overlay builds offline and passes
// the workload checks, the External Secrets example is on the API version current releases serve, and
// the demo builds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse, parseAllDocuments } from 'yaml';
import { kubeTool, validateObject, type K8sObject } from '../helpers/k8s-tools.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';
import { checkSidecarWorkload } from '../helpers/workload-checks.js';
import { parseEntitlementPolicy } from '../../src/injection/policy/entitlement-policy.js';

function build(path: string): K8sObject[] {
  const built = runTool(kubeTool('kubectl'), ['kustomize', path]);
  if (built.code !== 0) throw new Error(built.stderr);
  return parseAllDocuments(built.stdout).map((d) => d.toJS() as K8sObject);
}

test('the example overlay adds the sidecar with the Component; a setting is changed by name, not by position', (t) => {
  const objects = build('deploy/kustomize/example/overlay');
  t.deepEqual(
    objects.map((o) => o.kind),
    ['Deployment'],
  );
  const [deployment] = objects;
  t.notThrows(() => validateObject(deployment!));
  t.is(deployment!.metadata.namespace, 'billing');
  const sidecar = checkSidecarWorkload(t, deployment!, 'native');
  const env = Object.fromEntries((sidecar.env ?? []).map((e) => [e.name, e.value]));
  t.is(env.SFD_PROFILE, 'billing');
  t.is(env.SFD_LISTEN, '127.0.0.1:8080');
  t.is((sidecar as { image?: string }).image, 'ghcr.io/sfd-sidecar/sfd-sidecar:0.1.0');
  const overlay = readFileSync(join(REPO_ROOT, 'deploy/kustomize/example/overlay/kustomization.yaml'), 'utf8');
  t.notRegex(overlay, /path: \/spec/, 'no JSON patch by position');
});

test('the Component leaves Deployments that did not ask alone', (t) => {
  const app = parse(readFileSync(join(REPO_ROOT, 'deploy/kustomize/example/app/deployment.yaml'), 'utf8')) as K8sObject;
  t.is(
    (app.metadata.annotations as Record<string, string>)['sfd-sidecar.io/inject'],
    'true',
    'the example asks for it',
  );
  const component = parse(
    readFileSync(join(REPO_ROOT, 'deploy/kustomize/components/sfd-sidecar/kustomization.yaml'), 'utf8'),
  ) as { patches: { target: Record<string, string> }[] };
  t.deepEqual(component.patches[0]!.target, { kind: 'Deployment', annotationSelector: 'sfd-sidecar.io/inject=true' });
});

test(
  'the External Secrets example is a valid ' +
    'external-secrets.io/v1 ExternalSecret that writes the ' +
    'key store Secret',
  (t) => {
    const object = parse(
      readFileSync(join(REPO_ROOT, 'deploy/external-secrets/external-secret.yaml'), 'utf8'),
    ) as K8sObject;
    t.is(object.apiVersion, 'external-secrets.io/v1');
    t.notThrows(() => validateObject(object));
    t.like(object, { spec: { target: { name: 'sfd-keys' }, data: [{ secretKey: 'keystore.json' }] } });
  },
);

test('the per-namespace External Secrets give each namespace the files of its entitled profiles only', (t) => {
  const objects = parseAllDocuments(
    readFileSync(join(REPO_ROOT, 'deploy/external-secrets/per-namespace.yaml'), 'utf8'),
  ).map((d) => d.toJS() as K8sObject);
  for (const object of objects) t.notThrows(() => validateObject(object), object.metadata.name);
  const policy = parseEntitlementPolicy(
    readFileSync(join(REPO_ROOT, 'test/fixtures/policy/entitlements.yaml'), 'utf8'),
  );
  if (!policy.ok) return t.fail(policy.problems.join('\n'));
  for (const object of objects) {
    const namespace = String(object.metadata.namespace);
    const files = (object.spec as { data: { secretKey: string }[] }).data.map((d) => d.secretKey).sort();
    // What any service account of the namespace is entitled to.
    const entitled = [
      ...new Set(policy.policy.entitlements.filter((e) => e.namespace === namespace).flatMap((e) => e.profiles)),
    ]
      .map((p) => `${p}.json`)
      .sort();
    t.deepEqual(files, entitled, namespace);
  }
});

test('the demo builds: the emulator, its key store Secret, and an application that asks for the sidecar', (t) => {
  const objects = build('deploy/examples/demo');
  t.deepEqual(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort(), [
    'Deployment/demo-app',
    'Deployment/sfd-emulator',
    'Namespace/sfd-demo',
    'Secret/sfd-keys',
    'Service/sfd-emulator',
  ]);
  for (const object of objects.filter((o) => o.kind !== 'Namespace'))
    t.notThrows(() => validateObject(object), object.metadata.name);
  type Template = { metadata: { labels: Record<string, string>; annotations?: Record<string, string> } };
  const templateOf = (name: string) =>
    (
      objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name) as unknown as {
        spec: { template: Template };
      }
    ).spec.template;
  // The webhook's selectors see labels only: the app asks with one, the emulator opts out with one.
  t.is(templateOf('demo-app').metadata.labels['sfd-sidecar.io/inject'], 'true');
  t.like(templateOf('demo-app').metadata.annotations, { 'sfd-sidecar.io/upstream-url': 'http://sfd-emulator' });
  t.is(templateOf('sfd-emulator').metadata.labels['sfd-sidecar.io/inject'], 'false');
});
