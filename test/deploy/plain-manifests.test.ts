// deploy/ for users without the webhook: the kustomize Component adds the same sidecar as `inject`
// with a strategic-merge patch (lists merged by name), the example overlay builds offline and passes
// the workload checks, the External Secrets examples are on the API version current releases serve, the
// per-namespace one reads each namespace's profiles through a store and a Vault role scoped to them, and
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
  t.is((sidecar as { image?: string }).image, 'ghcr.io/sfd-sidecar/sfd-sidecar:0.2.0');
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
  const objects = perNamespaceObjects();
  for (const object of objects) t.notThrows(() => validateObject(object), `${object.kind} ${object.metadata.name}`);
  const externalSecrets = objects.filter((o) => o.kind === 'ExternalSecret');
  t.deepEqual(externalSecrets.map((o) => o.metadata.namespace).sort(), ['reporting', 'shop']);
  for (const object of externalSecrets) {
    const namespace = String(object.metadata.namespace);
    const files = (object.spec as ExternalSecretSpec).data.map((d) => d.secretKey).sort();
    t.deepEqual(
      files,
      entitledProfiles(namespace).map((p) => `${p}.json`),
      namespace,
    );
  }
});

test('each namespace reads the central store through a store of its own, scoped to its entitled profiles', (t) => {
  const objects = perNamespaceObjects();
  // A ClusterSecretStore serves ExternalSecrets of any namespace it admits with one set of credentials.
  t.deepEqual(
    objects.filter((o) => o.kind === 'ClusterSecretStore').map((o) => o.metadata.name),
    [],
    'no ClusterSecretStore',
  );
  const vault = readVaultSetup(readFileSync(join(REPO_ROOT, 'deploy/external-secrets/per-namespace-vault.sh'), 'utf8'));
  for (const external of objects.filter((o) => o.kind === 'ExternalSecret')) {
    const namespace = String(external.metadata.namespace);
    const spec = external.spec as ExternalSecretSpec;
    t.is(spec.secretStoreRef.kind, 'SecretStore', `${namespace}: a namespaced store`);
    const store = objects.find(
      (o) =>
        o.kind === 'SecretStore' && o.metadata.name === spec.secretStoreRef.name && o.metadata.namespace === namespace,
    );
    if (!store) {
      t.fail(`${namespace}: no SecretStore ${spec.secretStoreRef.name} in the namespace`);
      continue;
    }
    const provider = (store.spec as { provider: { vault: VaultProvider } }).provider.vault;
    t.is(provider.version, 'v2', namespace);
    const login = provider.auth.kubernetes;
    const serviceAccount = login.serviceAccountRef.name;
    t.true(
      objects.some(
        (o) => o.kind === 'ServiceAccount' && o.metadata.name === serviceAccount && o.metadata.namespace === namespace,
      ),
      `${namespace}: the store logs in as a service account of its own namespace`,
    );
    // Vault, not the manifest, holds the scope: the role admits this namespace's account alone, and its
    // policies read this namespace's profiles alone.
    const role = vault.roles.get(`${login.mountPath}/${login.role}`);
    if (!role) {
      t.fail(`${namespace}: per-namespace-vault.sh writes no role ${login.role} at auth/${login.mountPath}`);
      continue;
    }
    t.deepEqual(role.bound_service_account_namespaces, [namespace], `${namespace}: the role admits its namespace only`);
    t.deepEqual(role.bound_service_account_names, [serviceAccount], namespace);
    t.truthy(role.audience, `${namespace}: the role checks the token's audience`);
    t.deepEqual(role.audience, login.serviceAccountRef.audiences, `${namespace}: the token is minted for Vault`);
    const rules = (role.token_policies ?? []).flatMap((name) => vault.policies.get(name) ?? []);
    t.true(rules.length > 0, `${namespace}: the role has a policy`);
    for (const rule of rules) t.deepEqual(rule.capabilities, ['read'], rule.path);
    t.deepEqual(
      rules.map((r) => r.path).sort(),
      entitledProfiles(namespace).map((p) => `${provider.path}/data/profiles/${p}`),
      `${namespace}: the policy reads its entitled profiles, by exact path`,
    );
    for (const { remoteRef } of spec.data)
      t.true(
        rules.some((r) => r.path === `${provider.path}/data/${remoteRef.key}`),
        `${namespace}: ${remoteRef.key} is readable by the store`,
      );
  }
});

interface ExternalSecretSpec {
  secretStoreRef: { kind: string; name: string };
  data: { secretKey: string; remoteRef: { key: string; property?: string } }[];
}

interface VaultProvider {
  path: string;
  version?: string;
  auth: {
    kubernetes: { mountPath: string; role: string; serviceAccountRef: { name: string; audiences?: string[] } };
  };
}

function perNamespaceObjects(): K8sObject[] {
  return parseAllDocuments(readFileSync(join(REPO_ROOT, 'deploy/external-secrets/per-namespace.yaml'), 'utf8')).map(
    (d) => d.toJS() as K8sObject,
  );
}

/** What any service account of the namespace is entitled to in the tests' policy, sorted. */
function entitledProfiles(namespace: string): string[] {
  const policy = parseEntitlementPolicy(
    readFileSync(join(REPO_ROOT, 'test/fixtures/policy/entitlements.yaml'), 'utf8'),
  );
  if (!policy.ok) throw new Error(policy.problems.join('\n'));
  return [
    ...new Set(policy.policy.entitlements.filter((e) => e.namespace === namespace).flatMap((e) => e.profiles)),
  ].sort();
}

/**
 * The Vault policies (`vault policy write NAME - <<'EOF'`) and Kubernetes auth roles
 * (`vault write auth/MOUNT/role/NAME key=value,...`) a setup script writes; roles by `MOUNT/NAME`.
 */
function readVaultSetup(script: string): {
  policies: Map<string, { path: string; capabilities: string[] }[]>;
  roles: Map<string, Record<string, string[]>>;
} {
  const policies = new Map<string, { path: string; capabilities: string[] }[]>();
  for (const [, name, body] of script.matchAll(/^vault policy write (\S+) - <<'EOF'\n([\s\S]*?)^EOF$/gm)) {
    const rules = [...body!.matchAll(/^path "([^"]+)" \{\s*capabilities = \[([^\]]*)\]\s*\}/gm)].map((m) => ({
      path: m[1]!,
      capabilities: [...m[2]!.matchAll(/"([^"]+)"/g)].map((c) => c[1]!),
    }));
    policies.set(name!, rules);
  }
  const roles = new Map<string, Record<string, string[]>>();
  for (const [, mount, name, args] of script
    .replace(/\\\n\s*/g, ' ')
    .matchAll(/^vault write auth\/(\S+)\/role\/(\S+) (.+)$/gm)) {
    roles.set(
      `${mount}/${name}`,
      Object.fromEntries(
        args!
          .trim()
          .split(/\s+/)
          .map((pair) => {
            const [key, value] = pair.split('=');
            return [key!, value!.split(',')];
          }),
      ),
    );
  }
  return { policies, roles };
}

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
