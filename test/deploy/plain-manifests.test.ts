// deploy/ for users without Helm: the kustomize overlay builds offline and passes the same checks as
// the chart; the External Secrets example is a valid ExternalSecret.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse, parseAllDocuments } from 'yaml';
import { kubeTool, validateObject, type K8sObject } from '../helpers/k8s-tools.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';
import { checkSidecarWorkload } from '../helpers/workload-checks.js';

test('the kustomize example overlay builds and its objects are valid and safe', (t) => {
  const built = runTool(kubeTool('kubectl'), ['kustomize', 'deploy/kustomize/overlays/example']);
  t.is(built.code, 0, built.stderr);
  const objects = parseAllDocuments(built.stdout).map((d) => d.toJS() as K8sObject);
  t.deepEqual(objects.map((o) => o.kind).sort(), ['Deployment', 'Service']);
  for (const object of objects) {
    t.notThrows(() => validateObject(object), object.kind);
    t.is(object.metadata.namespace, 'billing');
  }
  const sidecar = checkSidecarWorkload(t, objects.find((o) => o.kind === 'Deployment')!, 'native');
  t.is(sidecar.env?.find((e) => e.name === 'SFD_PROFILE')?.value, 'billing');
});

test('the External Secrets example is a valid ExternalSecret that writes the key store Secret', (t) => {
  const object = parse(readFileSync(join(REPO_ROOT, 'deploy/external-secrets/external-secret.yaml'), 'utf8')) as K8sObject;
  t.notThrows(() => validateObject(object));
  t.like(object, { spec: { target: { name: 'sfd-keys' }, data: [{ secretKey: 'keystore.json' }] } });
});
