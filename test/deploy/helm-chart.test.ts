// The Helm chart installs the injector, validated offline: helm lint --strict and helm template with the
// defaults plus keystore.existingSecret and with every ci/*-values.yaml, each rendered object checked
// against the Kubernetes schemas, and the webhook's selectors evaluated against the pods and namespaces
// they must and must not match. There is no API server here: whether the API server calls the webhook
// and applies its patch is not proven (the webhook's own tests run it over HTTPS).
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { CHART, renderChart } from '../helpers/chart-render.js';
import { kubeTool, validateObject, type K8sObject } from '../helpers/k8s-tools.js';
import { SIDECAR_NAME } from '../../src/injection/contract.js';
import { parseEntitlementPolicy } from '../../src/injection/policy/entitlement-policy.js';
import { selects, type Selector } from '../helpers/label-selector.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';
import { HOME_REPOSITORY, VERSION } from '../../src/version.js';

const scenarios = readdirSync(join(REPO_ROOT, CHART, 'ci')).filter((f) => f.endsWith('-values.yaml'));
const render = (args: string[]) => renderChart(args);

interface Webhook {
  name: string;
  sideEffects: string;
  failurePolicy: string;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  clientConfig: { service: { name: string; namespace: string; path: string; port: number }; caBundle?: string };
  namespaceSelector: Selector;
  objectSelector: Selector;
  rules: { operations: string[]; resources: string[] }[];
}

const webhooksOf = (objects: K8sObject[]): Webhook[] =>
  (objects.find((o) => o.kind === 'MutatingWebhookConfiguration') as unknown as { webhooks: Webhook[] }).webhooks;
const webhookConfiguration = (objects: K8sObject[]) => objects.find((o) => o.kind === 'MutatingWebhookConfiguration')!;

interface Rule {
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
  verbs: string[];
}
interface Binding {
  kind: string;
  roleRef: { kind: string; name: string };
  subjects: { kind: string; name: string }[];
}

/** Every rule granted to a service account, as RBAC resolves its bindings, with where it applies. */
function grantsOf(objects: K8sObject[], serviceAccount: string) {
  const bindings = objects.filter(
    (o) => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding',
  ) as unknown as Binding[];
  return bindings
    .filter((b) => b.subjects.some((s) => s.kind === 'ServiceAccount' && s.name === serviceAccount))
    .flatMap((binding) => {
      const role = objects.find((o) => o.kind === binding.roleRef.kind && o.metadata.name === binding.roleRef.name);
      return ((role?.rules ?? []) as Rule[]).map((rule) => ({
        resources: rule.resources,
        names: rule.resourceNames,
        verbs: rule.verbs,
        scope: binding.kind === 'RoleBinding' ? 'the release namespace' : 'the cluster',
      }));
    });
}

const injectorPod = (objects: K8sObject[]) =>
  (
    objects.find((o) => o.kind === 'Deployment') as unknown as {
      spec: {
        replicas: number;
        template: {
          metadata: { labels: Record<string, string>; annotations: Record<string, string> };
          spec: Record<string, unknown> & { containers: Record<string, unknown>[] };
        };
      };
    }
  ).spec;

test('the chart ships one scenario per case', (t) => {
  t.deepEqual(scenarios.sort(), [
    'cert-manager-values.yaml',
    'classic-values.yaml',
    'existing-secret-values.yaml',
    'host-network-values.yaml',
    'monitoring-values.yaml',
    'operator-values.yaml',
    'policy-values.yaml',
  ]);
});

test(
  'with only keystore.existingSecret it installs the injector and nothing else: two replicas, a budget, a ' +
    'Service, a webhook, and the narrow rights to keep its certificate',
  (t) => {
    const lint = runTool(kubeTool('helm'), ['lint', '--strict', CHART, '--set', 'keystore.existingSecret=sfd-keys']);
    t.is(lint.code, 0, lint.stdout + lint.stderr);
    const { objects, code, stderr } = render(['--set', 'keystore.existingSecret=sfd-keys']);
    t.is(code, 0, stderr);
    t.deepEqual(objects.map((o) => o.kind).sort(), [
      'ClusterRole',
      'ClusterRoleBinding',
      'Deployment',
      'MutatingWebhookConfiguration',
      'Pod', // the `helm test` hook
      'PodDisruptionBudget',
      'Role',
      'RoleBinding',
      'Secret',
      'Service',
      'ServiceAccount',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    for (const object of objects) t.notThrows(() => validateObject(object), `${object.kind} ${object.metadata.name}`);
    t.deepEqual(render(['--set', 'keystore.existingSecret=sfd-keys']).objects, objects, 'every render is the same');
    const deployment = injectorPod(objects);
    t.is(deployment.replicas, 2);
    const container = deployment.template.spec.containers[0]!;
    const env = Object.fromEntries((container.env as { name: string; value?: string }[]).map((e) => [e.name, e.value]));
    t.like(env, {
      SFD_KEYSTORE_SECRET: 'sfd-keys',
      SFD_IMAGE: 'ghcr.io/sfd-sidecar/sfd-sidecar:0.2.0',
      SFD_SIDECAR_MODE: 'native',
      SFD_INJECTOR_LISTEN: ':8443',
    });
    t.like(container.securityContext, {
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    t.deepEqual((container.readinessProbe as { httpGet: unknown }).httpGet, { path: '/readyz', port: 'admin' });
    const secret = objects.find((o) => o.kind === 'Secret') as unknown as {
      metadata: { name: string };
      type: string;
      data: Record<string, string>;
    };
    t.like(
      secret,
      { type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } },
      'empty: the injector fills it',
    );
    t.like(env, {
      SFD_INJECTOR_TLS_SECRET: secret.metadata.name,
      SFD_INJECTOR_WEBHOOK: webhookConfiguration(objects).metadata.name,
      SFD_INJECTOR_SERVICE: 'release-sfd-sidecar.sfd-system',
    });
    t.is(deployment.template.spec.automountServiceAccountToken, true, 'a token, for the API calls');
    t.is(deployment.template.spec.volumes, undefined);
    t.deepEqual(grantsOf(objects, deployment.template.spec.serviceAccountName as string), [
      {
        resources: ['mutatingwebhookconfigurations'],
        names: [webhookConfiguration(objects).metadata.name],
        verbs: ['get', 'update'],
        scope: 'the cluster',
      },
      {
        resources: ['secrets'],
        names: [secret.metadata.name],
        verbs: ['get', 'update'],
        scope: 'the release namespace',
      },
    ]);
    for (const webhook of webhooksOf(objects)) {
      t.is(webhook.clientConfig.caBundle, undefined, 'the injector writes the CA bundle');
      t.like(webhook, {
        sideEffects: 'None',
        failurePolicy: 'Ignore',
        timeoutSeconds: 5,
        admissionReviewVersions: ['v1'],
      });
      t.deepEqual(
        webhook.rules.map((r) => [r.operations, r.resources]),
        [[['CREATE'], ['pods']]],
      );
      t.like(webhook.clientConfig.service, { name: 'release-sfd-sidecar', namespace: 'sfd-system', port: 443 });
    }
    t.deepEqual(
      webhooksOf(objects).map((w) => w.clientConfig.service.path),
      ['/mutate', '/mutate/namespace'],
    );
  },
);

test('policy.entitlements reaches the injector as the policy file it reads, and NOTES say when none is', (t) => {
  const { objects } = render(['-f', join(CHART, 'ci', 'policy-values.yaml')]);
  const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-policy')) as unknown as {
    metadata: { name: string };
    data: Record<string, string>;
  };
  const parsed = parseEntitlementPolicy(configMap.data['policy.yaml']!);
  if (!parsed.ok) return t.fail(parsed.problems.join('\n'));
  const values = parse(readFileSync(join(REPO_ROOT, CHART, 'ci', 'policy-values.yaml'), 'utf8')) as {
    policy: { entitlements: unknown[] };
  };
  t.deepEqual(
    parsed.policy.entitlements,
    values.policy.entitlements.map((e) => ({
      serviceAccounts: null,
      operations: null,
      enforce: true,
      ...(e as object),
    })),
  );
  const pod = injectorPod(objects).template.spec as {
    containers: { env: { name: string; value?: string }[]; volumeMounts: { name: string; mountPath: string }[] }[];
    volumes: { name: string; configMap?: { name: string } }[];
  };
  const file = pod.containers[0]!.env.find((e) => e.name === 'SFD_POLICY_FILE')!.value!;
  const mount = pod.containers[0]!.volumeMounts.find((m) => file.startsWith(`${m.mountPath}/`))!;
  t.is(file, `${mount.mountPath}/policy.yaml`);
  t.is(pod.volumes.find((v) => v.name === mount.name)!.configMap!.name, configMap.metadata.name);
  const without = render(['--set', 'keystore.existingSecret=sfd-keys']).objects;
  t.false(without.some((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-policy')));
});

test('issuer chart: the chart generates a CA, and the webhook trusts the one that signed the certificate', (t) => {
  const { objects } = render(['--set', 'keystore.existingSecret=sfd-keys', '--set', 'certificates.issuer=chart']);
  const secret = objects.find((o) => o.kind === 'Secret') as unknown as { data: Record<string, string> };
  for (const webhook of webhooksOf(objects)) t.is(webhook.clientConfig.caBundle, secret.data['ca.crt']);
  t.false(
    objects.some((o) => o.kind.endsWith('Role')),
    'no API rights',
  );
  t.is(injectorPod(objects).template.spec.automountServiceAccountToken, false);
});

test("the webhook's selectors never match kube-system, the release's namespace or the injector's own pods", (t) => {
  const { objects } = render([
    '--set',
    'keystore.existingSecret=sfd-keys',
    '--set',
    'webhook.excludeNamespaces={monitoring}',
  ]);
  const [pods, namespaces] = webhooksOf(objects);
  const ns = (name: string, labels: Record<string, string> = {}) => ({
    'kubernetes.io/metadata.name': name,
    ...labels,
  });
  for (const webhook of [pods!, namespaces!]) {
    for (const name of ['kube-system', 'sfd-system', 'monitoring']) {
      t.false(
        selects(webhook.namespaceSelector, ns(name, { 'sfd-sidecar.io/inject': 'enabled' })),
        `${webhook.name} in ${name}`,
      );
    }
    t.false(
      selects(webhook.objectSelector, injectorPod(objects).template.metadata.labels),
      `${webhook.name} on the injector`,
    );
    t.false(selects(webhook.objectSelector, { app: 'web', 'sfd-sidecar.io/inject': 'false' }), 'a pod that opts out');
  }
  // Only pods that ask reach the injector: an outage never blocks the others, whatever the failure policy.
  t.true(selects(pods!.objectSelector, { app: 'web', 'sfd-sidecar.io/inject': 'true' }), 'a pod labelled "true"');
  t.false(selects(pods!.objectSelector, { app: 'web' }), '/mutate never sees a pod that did not ask');
  t.true(selects(namespaces!.objectSelector, { app: 'web' }), 'every pod of an opted-in namespace');
  t.true(selects(pods!.namespaceSelector, ns('shop')), '/mutate sees the pods of every other namespace');
  t.false(selects(pods!.namespaceSelector, ns('shop', { 'sfd-sidecar.io/inject': 'enabled' })));
  t.true(
    selects(namespaces!.namespaceSelector, ns('shop', { 'sfd-sidecar.io/inject': 'enabled' })),
    '/mutate/namespace sees opted-in namespaces only',
  );
  t.false(selects(namespaces!.namespaceSelector, ns('shop')));
  t.is(injectorPod(objects).template.metadata.labels['sfd-sidecar.io/inject'], 'false');
});

for (const scenario of scenarios) {
  test(`${scenario}: helm lint --strict passes and every rendered object is valid`, (t) => {
    const lint = runTool(kubeTool('helm'), ['lint', '--strict', CHART, '-f', join(CHART, 'ci', scenario)]);
    t.is(lint.code, 0, lint.stdout + lint.stderr);
    const { objects, code, stderr } = render(['-f', join(CHART, 'ci', scenario)]);
    t.is(code, 0, stderr);
    for (const object of objects) t.notThrows(() => validateObject(object), `${object.kind} ${object.metadata.name}`);
  });
}

test('the values people expect reach the injector; signatureVersion 2 is taken as a number or a string', (t) => {
  const { objects } = render([
    '-f',
    join(CHART, 'ci/existing-secret-values.yaml'),
    '--set',
    'fullnameOverride=injector',
  ]);
  const deployment = injectorPod(objects);
  const spec = deployment.template.spec;
  t.deepEqual(spec.imagePullSecrets, [{ name: 'registry-credentials' }]);
  t.like(spec, {
    priorityClassName: 'system-cluster-critical',
    nodeSelector: { 'node-role.example.com/system': 'true' },
  });
  t.like(deployment.template.metadata, {
    labels: { team: 'platform' },
    annotations: { 'example.com/owner': 'platform' },
  });
  const env = JSON.stringify(spec.containers[0]!.env);
  t.true(env.includes('{"name":"SFD_SIGNATURE_VERSION","value":"2"}'));
  t.true(env.includes('{"name":"SFD_IMAGE","value":"registry.example.internal/sfd-sidecar:0.2.0"}'));
  t.true(objects.every((o) => o.metadata.name.startsWith('injector')));
  t.is(webhooksOf(objects)[0]!.failurePolicy, 'Fail');
  const asString = render(['--set', 'keystore.existingSecret=k', '--set-string', 'sidecar.signatureVersion=1']);
  t.true(JSON.stringify(asString.objects).includes('{"name":"SFD_SIGNATURE_VERSION","value":"1"}'), asString.stderr);
});

test('cert-manager issues the certificate through a CA of its own, whose bundle renewals do not change', (t) => {
  const { objects } = render(['-f', join(CHART, 'ci/cert-manager-values.yaml')]);
  t.is(render(['-f', join(CHART, 'ci/cert-manager-values.yaml')]).objects.length, objects.length);
  t.deepEqual(
    render(['-f', join(CHART, 'ci/cert-manager-values.yaml')]).objects,
    objects,
    'every render is the same text: nothing for Argo CD or Flux to see drift in',
  );
  type Issued = {
    metadata: { name: string };
    spec: { isCA?: boolean; secretName: string; issuerRef: { name: string } };
  };
  const certificates = objects.filter((o) => o.kind === 'Certificate') as unknown as Issued[];
  const issuers = objects.filter((o) => o.kind === 'Issuer') as unknown as {
    metadata: { name: string };
    spec: { selfSigned?: object; ca?: { secretName: string } };
  }[];
  const ca = certificates.find((c) => c.spec.isCA)!;
  const serving = certificates.find((c) => !c.spec.isCA)!;
  const caIssuer = issuers.find((i) => i.spec.ca)!;
  t.is(caIssuer.spec.ca!.secretName, ca.spec.secretName, 'the CA issuer signs with the CA certificate');
  t.is(serving.spec.issuerRef.name, caIssuer.metadata.name, 'the serving certificate comes from the CA issuer');
  t.truthy(issuers.find((i) => i.spec.selfSigned && i.metadata.name === ca.spec.issuerRef.name));
  t.falsy(
    objects.find((o) => o.kind === 'Secret'),
    'no chart-generated Secret',
  );
  const configuration = objects.find((o) => o.kind === 'MutatingWebhookConfiguration')!;
  t.is(
    (configuration.metadata.annotations as Record<string, string>)['cert-manager.io/inject-ca-from'],
    `sfd-system/${ca.metadata.name}`,
    'the bundle is the CA, which renewals of the serving certificate leave alone',
  );
  t.true(webhooksOf(objects).every((w) => w.clientConfig.caBundle === undefined));
  const detected = render(['--set', 'keystore.existingSecret=k', '--api-versions', 'cert-manager.io/v1']);
  t.truthy(
    detected.objects.find((o) => o.kind === 'Certificate'),
    'auto: cert-manager when the cluster has it',
  );
  const certificate = detected.objects.find(
    (o) => o.kind === 'Certificate' && !(o.spec as { isCA?: boolean }).isCA,
  ) as unknown as {
    spec: { dnsNames: string[] };
  };
  t.true(certificate.spec.dnsNames.includes('release-sfd-sidecar.sfd-system.svc'));
});

interface Relabeling {
  sourceLabels?: string[];
  targetLabel?: string;
  regex?: string;
  replacement?: string;
  action?: string;
}
interface PodMonitorSpec {
  selector: Selector;
  namespaceSelector?: { any?: boolean };
  sampleLimit?: number;
  podMetricsEndpoints: { port: string; honorLabels?: boolean; relabelings?: Relabeling[] }[];
}

test(
  'monitoring: PodMonitors select injected pods and the injector; the rules and the dashboard are those of ' +
    'deploy/',
  (t) => {
    const { objects } = render(['-f', join(CHART, 'ci/monitoring-values.yaml')]);
    const monitors = objects.filter((o) => o.kind === 'PodMonitor') as unknown as { spec: PodMonitorSpec }[];
    const sidecars = monitors.find((m) => m.spec.podMetricsEndpoints[0]!.port === 'sfd-admin')!;
    t.true(selects(sidecars.spec.selector, { 'sfd-sidecar.io/injected': 'true', app: 'web' }));
    t.true(sidecars.spec.namespaceSelector?.any);
    t.true(selects(monitors.find((m) => m !== sidecars)!.spec.selector, injectorPod(objects).template.metadata.labels));
    const rules = readFileSync(join(REPO_ROOT, 'deploy/prometheus/sfd-sidecar.rules.yaml'), 'utf8');
    const rule = objects.find((o) => o.kind === 'PrometheusRule') as unknown as { spec: { groups: unknown } };
    t.deepEqual(rule.spec.groups, (parse(rules) as { groups: unknown }).groups);
    const dashboard = objects.find((o) => o.kind === 'ConfigMap') as unknown as { data: Record<string, string> };
    t.deepEqual(
      JSON.parse(dashboard.data['sfd-sidecar-dashboard.json']!),
      JSON.parse(readFileSync(join(REPO_ROOT, 'deploy/grafana/sfd-sidecar-dashboard.json'), 'utf8')),
    );
  },
);

test(
  "monitoring: a pod that only looks injected is scraped as the sidecar's container, within a sample limit, " +
    'under its own labels; the injector under the job its alerts select',
  (t) => {
    const values = parse(readFileSync(join(REPO_ROOT, CHART, 'values.yaml'), 'utf8')) as {
      metrics: { podMonitor: { sampleLimit: number } };
    };
    const { objects } = render(['-f', join(CHART, 'ci/monitoring-values.yaml')]);
    const monitors = objects.filter((o) => o.kind === 'PodMonitor') as unknown as { spec: PodMonitorSpec }[];
    const sidecars = monitors.find((m) => m.spec.podMetricsEndpoints[0]!.port === 'sfd-admin')!.spec;
    const injector = monitors.find((m) => m.spec.podMetricsEndpoints[0]!.port === 'admin')!.spec;
    t.is(sidecars.sampleLimit, values.metrics.podMonitor.sampleLimit);
    t.true(Number.isInteger(sidecars.sampleLimit) && sidecars.sampleLimit! > 0);
    const sidecarEndpoint = sidecars.podMetricsEndpoints[0]!;
    t.false(sidecarEndpoint.honorLabels);
    t.deepEqual(sidecarEndpoint.relabelings, [
      { sourceLabels: ['__meta_kubernetes_pod_container_name'], regex: SIDECAR_NAME, action: 'keep' },
    ]);
    const injectorEndpoint = injector.podMetricsEndpoints[0]!;
    t.false(injectorEndpoint.honorLabels);
    const job = injectorEndpoint.relabelings?.find((r) => r.targetLabel === 'job')?.replacement;
    const rules = readFileSync(join(REPO_ROOT, 'deploy/prometheus/sfd-sidecar.rules.yaml'), 'utf8');
    const injectorRules = (
      parse(rules) as { groups: { name: string; rules: { alert: string; expr: string }[] }[] }
    ).groups.find((g) => g.name === 'sfd-sidecar-injector')!.rules;
    t.truthy(job);
    for (const { alert, expr } of injectorRules) t.true(expr.includes(`{job="${job}"}`), alert);

    // A number from a values file (or --set-json) is a float to Helm, written in e-notation when large.
    const limited = render([
      '-f',
      join(CHART, 'ci/monitoring-values.yaml'),
      '--set-json',
      'metrics.podMonitor.sampleLimit=2000000',
    ]);
    const limit = (limited.objects.find((o) => o.kind === 'PodMonitor') as unknown as { spec: PodMonitorSpec }).spec;
    t.is(limit.sampleLimit, 2_000_000);
    const alone = render(['--set', 'keystore.existingSecret=keys', '--set', 'metrics.prometheusRule.enabled=true']);
    t.not(alone.code, 0);
    t.regex(alone.stderr, /metrics\.prometheusRule\.enabled needs metrics\.podMonitor\.enabled/);
  },
);

test('typos, a missing key store Secret, and a Kubernetes older than 1.30 are refused with what to do', (t) => {
  const typo = render(['--set', 'keystore.existingSecret=keys', '--set', 'sidecar.mod=classic']);
  t.not(typo.code, 0);
  t.regex(typo.stderr, /additional properties 'mod' not allowed|Additional property mod is not allowed/i);
  const missing = render([]);
  t.not(missing.code, 0);
  t.regex(missing.stderr, /keystore/);
  // The admission policy is the API server's backstop; a cluster without it is not one the chart
  // installs on.
  const old = render(['--set', 'keystore.existingSecret=keys', '--kube-version', '1.29.9']);
  t.not(old.code, 0);
  t.regex(old.stderr, /kubeVersion: >=1\.30\.0-0/);
  t.is(render(['--set', 'keystore.existingSecret=keys', '--kube-version', '1.30.0']).code, 0);
  const version = render(['--set', 'keystore.existingSecret=keys', '--set', 'sidecar.signatureVersion=3']);
  t.not(version.code, 0);
});

test("the chart's appVersion is the package's version, and its README is what helm show readme prints", (t) => {
  const chart = parse(readFileSync(join(REPO_ROOT, CHART, 'Chart.yaml'), 'utf8')) as {
    appVersion: string;
    kubeVersion: string;
  };
  t.is(
    chart.appVersion,
    (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
  );
  const readme = runTool(kubeTool('helm'), ['show', 'readme', CHART]);
  t.regex(readme.stdout, /^# sfd-sidecar chart/);
  t.regex(readme.stdout, /helm install sfd-sidecar helm\/sfd-sidecar .*--set keystore\.existingSecret=sfd-keys/s);
});

test('NOTES say where the certificate comes from and how a pod asks for the sidecar', (t) => {
  // helm renders NOTES.txt only on install, which wants a cluster; rendering it with `tpl` in a copy of
  // the chart gives the same text offline.
  const copy = join(mkdtempSync(join(tmpdir(), 'sfd-chart-')), 'sfd-sidecar');
  cpSync(join(REPO_ROOT, CHART), copy, { recursive: true });
  cpSync(join(copy, 'templates/NOTES.txt'), join(copy, 'files/NOTES.txt'));
  writeFileSync(
    join(copy, 'templates/notes-as-configmap.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  notes: {{ tpl (.Files.Get ' +
      '"files/NOTES.txt") . | quote }}\n',
  );
  const notesOf = (values: string): string => {
    const result = runTool(kubeTool('helm'), [
      'template',
      'release',
      copy,
      '-f',
      join(CHART, 'ci', values),
      '--show-only',
      'templates/notes-as-configmap.yaml',
    ]);
    t.is(result.code, 0, result.stderr);
    return (parse(result.stdout) as { data: { notes: string } }).data.notes;
  };
  const injectorIssued = notesOf('classic-values.yaml');
  t.regex(injectorIssued, /the injector \(a CA it keeps and renews in the Secret release-sfd-sidecar-tls\)/);
  t.regex(injectorIssued, /sfd-sidecar\.io\/inject: "true"/);
  t.regex(injectorIssued, /\(classic form\)/);
  t.regex(injectorIssued, /needs the key store Secret sfd-keys/);
  // The command the NOTES name comes from the release of the chart's version, never from npx.
  const tarball = `https://github.com/${HOME_REPOSITORY}/releases/download/v${VERSION}/sfd-sidecar-${VERSION}.tgz`;
  t.true(injectorIssued.includes(`  npm install -g ${tarball}\n`), injectorIssued);
  t.regex(notesOf('cert-manager-values.yaml'), /comes from cert-manager;/);
  t.regex(notesOf('operator-values.yaml'), /comes from the Secret sfd-webhook-tls, which you keep and renew;/);
  t.regex(injectorIssued, /No entitlement policy is in force/);
  t.regex(notesOf('policy-values.yaml'), /Entitlement policy: 2 entitlement\(s\); a pod outside it is refused/);
});

test("the sidecar's image, pull policy and resources are values of their own, apart from the injector's", (t) => {
  const digest = `sha256:${'a'.repeat(64)}`;
  const { objects, code, stderr } = render([
    '--set',
    'keystore.existingSecret=sfd-keys',
    '--set',
    'image.repository=registry.local/injector',
    '--set',
    'sidecar.image.repository=registry.local/sidecar',
    '--set',
    `sidecar.image.digest=${digest}`,
    '--set',
    'sidecar.image.pullPolicy=Always',
    '--set',
    'sidecar.resources.limits.memory=256Mi',
    '--set',
    'sidecar.resources.requests.cpu=100m',
  ]);
  t.is(code, 0, stderr);
  const container = injectorPod(objects).template.spec.containers[0]!;
  t.is(container.image, 'registry.local/injector:0.2.0');
  const env = Object.fromEntries((container.env as { name: string; value?: string }[]).map((e) => [e.name, e.value]));
  t.like(env, {
    SFD_IMAGE: `registry.local/sidecar:0.2.0@${digest}`,
    SFD_IMAGE_PULL_POLICY: 'Always',
    SFD_SIDECAR_CPU_REQUEST: '100m',
    SFD_SIDECAR_MEMORY_LIMIT: '256Mi',
  });
  const low = render(['--set', 'keystore.existingSecret=k', '--set', 'sidecar.resources.limits.memory=lots']);
  t.not(low.code, 0, 'the schema refuses what is not a quantity');
});

test('chart conventions: a ServiceAccount, replicas spread over nodes, a helm test, a NetworkPolicy', (t) => {
  const { objects, code, stderr } = render([
    '--set',
    'keystore.existingSecret=sfd-keys',
    '--set',
    'networkPolicy.enabled=true',
    '--set',
    'serviceAccount.annotations.team=platform',
  ]);
  t.is(code, 0, stderr);
  for (const object of objects) t.notThrows(() => validateObject(object), `${object.kind} ${object.metadata.name}`);
  const account = objects.find((o) => o.kind === 'ServiceAccount') as unknown as {
    metadata: { name: string; annotations: Record<string, string> };
    automountServiceAccountToken: boolean;
  };
  const pod = injectorPod(objects).template;
  t.is(pod.spec.serviceAccountName, account.metadata.name);
  t.like(account, { metadata: { annotations: { team: 'platform' } }, automountServiceAccountToken: false });
  const [spread] = pod.spec.topologySpreadConstraints as { topologyKey: string; labelSelector: Selector }[];
  t.is(spread?.topologyKey, 'kubernetes.io/hostname');
  t.true(selects(spread!.labelSelector, pod.metadata.labels), "the spread counts the injector's own pods");
  const hook = objects.find((o) => o.kind === 'Pod') as unknown as {
    metadata: { annotations: Record<string, string>; labels: Record<string, string> };
    spec: { containers: { command: string[] }[]; volumes: { secret: { secretName: string } }[] };
  };
  t.is(hook.metadata.annotations['helm.sh/hook'], 'test');
  t.is(hook.metadata.labels['sfd-sidecar.io/inject'], 'false', 'never gets a sidecar itself');
  t.regex(hook.spec.containers[0]!.command.join(' '), /path: '\/mutate'/);
  const policy = objects.find((o) => o.kind === 'NetworkPolicy') as unknown as {
    spec: { podSelector: Selector; ingress: { ports: { port: number }[] }[] };
  };
  t.true(selects(policy.spec.podSelector, pod.metadata.labels));
  t.deepEqual(
    policy.spec.ingress.flatMap((rule) => rule.ports.map((p) => p.port)),
    [8443, 9090],
  );
});
