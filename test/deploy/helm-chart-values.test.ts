// The chart values operators expect of a chart (those of `helm create` and of common library charts):
// each one set, rendered with `helm template`, and found where it belongs in the rendered objects, which
// must still be valid Kubernetes objects; the values that conflict are refused with what to do.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { parse } from 'yaml';
import { CHART, renderChart, type Render } from '../helpers/chart-render.js';
import { kubeTool, validateObject, type K8sObject } from '../helpers/k8s-tools.js';
import { selects, type Selector } from '../helpers/label-selector.js';
import { REPO_ROOT, runTool } from '../helpers/tools.js';
import { IMAGE_REPOSITORY } from '../../src/version.js';

const KEYS = ['--set', 'keystore.existingSecret=sfd-keys'];
const DIGEST = `sha256:${'d'.repeat(64)}`;
const OTHER_DIGEST = `sha256:${'e'.repeat(64)}`;
const APP_VERSION = (parse(readFileSync(join(REPO_ROOT, CHART, 'Chart.yaml'), 'utf8')) as { appVersion: string })
  .appVersion;

const render = (...args: string[]): Render => renderChart([...KEYS, ...args]);
/** A render that must succeed, each of its objects valid against its Kubernetes schema. */
function valid(t: ExecutionContext, ...args: string[]): K8sObject[] {
  const result = render(...args);
  t.is(result.code, 0, result.stderr);
  for (const object of result.objects) validateObject(object);
  return result.objects;
}

interface Container {
  name: string;
  image: string;
  args?: string[];
  env: { name: string; value?: string }[];
  volumeMounts?: { name: string; mountPath: string }[];
  livenessProbe?: Record<string, unknown>;
  readinessProbe?: Record<string, unknown>;
  startupProbe?: Record<string, unknown>;
}
interface PodSpec {
  containers: Container[];
  imagePullSecrets?: { name: string }[];
  volumes?: { name: string; secret?: { secretName: string } }[];
}
interface Deployment {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    revisionHistoryLimit?: number;
    strategy?: unknown;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}
interface Webhook {
  clientConfig: { caBundle?: string };
  namespaceSelector: Selector;
  objectSelector: Selector;
}

const deploymentOf = (objects: K8sObject[]) => objects.find((o) => o.kind === 'Deployment') as unknown as Deployment;
const injectorOf = (objects: K8sObject[]) => deploymentOf(objects).spec.template.spec.containers[0]!;
const testPodOf = (objects: K8sObject[]) =>
  objects.find((o) => o.kind === 'Pod') as unknown as { spec: PodSpec; metadata: { labels: Record<string, string> } };
const envOf = (container: Container, name: string) => container.env.find((e) => e.name === name)?.value;
const sidecarImageOf = (objects: K8sObject[]) => envOf(injectorOf(objects), 'SFD_IMAGE');
const webhooksOf = (objects: K8sObject[]) =>
  (objects.find((o) => o.kind === 'MutatingWebhookConfiguration') as unknown as { webhooks: Webhook[] }).webhooks;
const annotationsOf = (object: K8sObject) => (object.metadata.annotations ?? {}) as Record<string, string>;

test('without keystore.existingSecret, helm says it is required and how to set it, not a pattern', (t) => {
  for (const args of [[], ['--set', 'keystore.existingSecret=']]) {
    const result = renderChart(args);
    t.not(result.code, 0);
    t.true(
      result.stderr.includes(
        'keystore.existingSecret is required: set it to the name of the Secret that holds the key store in each ' +
          'namespace whose pods get the sidecar, as in --set keystore.existingSecret=sfd-keys',
      ),
      result.stderr,
    );
    t.notRegex(result.stderr, /pattern/);
  }
  const misspelt = renderChart(['--set', 'keystore.existingSecret=SFD_Keys']);
  t.not(misspelt.code, 0, 'a name Kubernetes cannot have is still refused by the schema');
  t.regex(misspelt.stderr, /keystore\.existingSecret/);
});

test('image tags and digests: a tag set wins, a digest serves the empty tag, TAG@DIGEST pins a tag', (t) => {
  const cases: [args: string[], sidecar: string, injector: string][] = [
    [[], `${IMAGE_REPOSITORY}:${APP_VERSION}`, `${IMAGE_REPOSITORY}:${APP_VERSION}`],
    [
      ['--set', `sidecar.image.digest=${DIGEST}`, '--set', `image.digest=${OTHER_DIGEST}`],
      `${IMAGE_REPOSITORY}:${APP_VERSION}@${DIGEST}`,
      `${IMAGE_REPOSITORY}:${APP_VERSION}@${OTHER_DIGEST}`,
    ],
    // The digest the release wrote is its own version's: it never pins another tag.
    [
      [
        '--set',
        `sidecar.image.digest=${DIGEST}`,
        '--set',
        'sidecar.image.tag=1.2.3',
        '--set',
        `image.digest=${DIGEST}`,
      ],
      `${IMAGE_REPOSITORY}:1.2.3`,
      `${IMAGE_REPOSITORY}:${APP_VERSION}@${DIGEST}`,
    ],
    [
      ['--set', `sidecar.image.tag=1.2.3@${OTHER_DIGEST}`, '--set', `sidecar.image.digest=${DIGEST}`],
      `${IMAGE_REPOSITORY}:1.2.3@${OTHER_DIGEST}`,
      `${IMAGE_REPOSITORY}:${APP_VERSION}`,
    ],
    [['--set', `image.tag=2.0.0`], `${IMAGE_REPOSITORY}:${APP_VERSION}`, `${IMAGE_REPOSITORY}:2.0.0`],
  ];
  for (const [args, sidecar, injector] of cases) {
    const objects = valid(t, ...args);
    t.is(sidecarImageOf(objects), sidecar, args.join(' '));
    t.is(injectorOf(objects).image, injector, args.join(' '));
    t.is(testPodOf(objects).spec.containers[0]!.image, injector, 'the helm test runs the injector image');
  }
  for (const bad of ['sha256:abc', `sha512:${'d'.repeat(128)}`, 'latest']) {
    t.not(render('--set', `sidecar.image.digest=${bad}`).code, 0, `sidecar.image.digest ${bad}`);
    t.not(render('--set', `image.digest=${bad}`).code, 0, `image.digest ${bad}`);
  }
  t.not(render('--set', 'sidecar.image.tag=@' + DIGEST).code, 0, 'a digest needs its tag');
});

test('registries: global.imageRegistry mirrors both images, an image registry of its own wins', (t) => {
  const cases: [args: string[], sidecar: string, injector: string][] = [
    [
      ['--set', 'global.imageRegistry=mirror.example.internal'],
      `mirror.example.internal/sfd-sidecar/sfd-sidecar:${APP_VERSION}`,
      `mirror.example.internal/sfd-sidecar/sfd-sidecar:${APP_VERSION}`,
    ],
    [
      ['--set', 'global.imageRegistry=harbor.local:5000/ghcr-proxy/', '--set', 'image.registry=registry.local'],
      `harbor.local:5000/ghcr-proxy/sfd-sidecar/sfd-sidecar:${APP_VERSION}`,
      `registry.local/sfd-sidecar/sfd-sidecar:${APP_VERSION}`,
    ],
    [
      ['--set', 'sidecar.image.registry=localhost:5000', '--set', 'sidecar.image.repository=team/sfd'],
      `localhost:5000/team/sfd:${APP_VERSION}`,
      `${IMAGE_REPOSITORY}:${APP_VERSION}`,
    ],
    [
      ['--set', 'global.imageRegistry=m.local', '--set', 'sidecar.image.repository=localhost/sfd'],
      `m.local/sfd:${APP_VERSION}`,
      `m.local/sfd-sidecar/sfd-sidecar:${APP_VERSION}`,
    ],
  ];
  for (const [args, sidecar, injector] of cases) {
    const objects = valid(t, ...args);
    t.is(sidecarImageOf(objects), sidecar, args.join(' '));
    t.is(injectorOf(objects).image, injector, args.join(' '));
  }
  t.not(render('--set', 'global.imageRegistry=https://mirror').code, 0, 'a registry is a host, not a URL');
});

test("pull secrets: global first, then the chart's, names or {name}, each once, for the injector and its test", (t) => {
  const objects = valid(
    t,
    '--set-json',
    'global.imagePullSecrets=["shared",{"name":"mirror"}]',
    '--set-json',
    'imagePullSecrets=[{"name":"mirror"},"own"]',
  );
  const expected = [{ name: 'shared' }, { name: 'mirror' }, { name: 'own' }];
  t.deepEqual(deploymentOf(objects).spec.template.spec.imagePullSecrets, expected);
  t.deepEqual(testPodOf(objects).spec.imagePullSecrets, expected);
  t.is(deploymentOf(valid(t)).spec.template.spec.imagePullSecrets, undefined);
  t.not(render('--set-json', 'global.imagePullSecrets=["Not A Name"]').code, 0);
});

test('global stays open to the values a parent chart shares', (t) => {
  valid(t, '--set', 'global.storageClass=fast', '--set', 'global.imageRegistry=m.local');
});

test('commonLabels and commonAnnotations reach every object the chart renders, never replacing its own', (t) => {
  const common = [
    '--set',
    'commonLabels.team=platform',
    '--set',
    'commonLabels.app\\.kubernetes\\.io/name=other',
    '--set',
    'commonAnnotations.example\\.com/owner=platform',
    '--set',
    'webhook.annotations.example\\.com/owner=webhooks',
  ];
  const scenarios = [
    // The injector keeps its certificate (RBAC), with every optional object.
    [
      '-f',
      join(CHART, 'ci/monitoring-values.yaml'),
      '-f',
      join(CHART, 'ci/policy-values.yaml'),
      '--set',
      'networkPolicy.enabled=true',
      '--set',
      'certificates.issuer=injector',
    ],
    ['-f', join(CHART, 'ci/cert-manager-values.yaml')],
    ['--set', 'certificates.issuer=chart'],
  ];
  const kinds = new Set<string>();
  for (const scenario of scenarios) {
    const objects = valid(t, ...scenario, ...common);
    const plain = render(...scenario).objects;
    t.is(objects.length, plain.length);
    for (const object of objects) {
      const name = `${object.kind} ${object.metadata.name}`;
      kinds.add(object.kind);
      const labels = object.metadata.labels as Record<string, string>;
      t.is(labels.team, 'platform', name);
      t.is(labels['app.kubernetes.io/name'], 'sfd-sidecar', `${name}: the chart's label wins`);
      const own = object.kind === 'MutatingWebhookConfiguration' ? 'webhooks' : 'platform';
      t.is(annotationsOf(object)['example.com/owner'], own, `${name}: its own annotation wins`);
      if (object.kind === 'Pod') t.is(annotationsOf(object)['helm.sh/hook'], 'test', "the test's hook stays");
    }
    const deployment = deploymentOf(objects);
    t.deepEqual(deployment.spec.selector, deploymentOf(plain).spec.selector, 'the selector never changes');
    t.like(deployment.spec.template.metadata.labels, { team: 'platform', 'sfd-sidecar.io/inject': 'false' });
    const monitorLabels = objects.filter((o) => o.kind === 'PodMonitor').map((o) => o.metadata.labels);
    for (const labels of monitorLabels) t.like(labels, { release: 'prometheus', team: 'platform' });
  }
  t.deepEqual(
    [...kinds].sort(),
    [
      'Certificate',
      'ClusterRole',
      'ClusterRoleBinding',
      'ConfigMap',
      'Deployment',
      'Issuer',
      'MutatingWebhookConfiguration',
      'NetworkPolicy',
      'Pod',
      'PodDisruptionBudget',
      'PodMonitor',
      'PrometheusRule',
      'Role',
      'RoleBinding',
      'Secret',
      'Service',
      'ServiceAccount',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ],
    'every kind the chart renders was seen',
  );
});

test('the injector: probes, a startup probe, extra args, env, volumes and mounts, strategy and history', (t) => {
  const objects = valid(
    t,
    '--set',
    'livenessProbe.periodSeconds=20',
    '--set',
    'livenessProbe.failureThreshold=6',
    '--set-json',
    'readinessProbe={"httpGet":null,"tcpSocket":{"port":"webhook"},"periodSeconds":3}',
    '--set-json',
    'startupProbe={"httpGet":{"path":"/healthz","port":"admin"},"failureThreshold":30,"periodSeconds":2}',
    '--set-json',
    'extraArgs=["--log-level","debug"]',
    '--set-json',
    'extraEnv=[{"name":"NODE_EXTRA_CA_CERTS","value":"/etc/extra/ca.crt"}]',
    '--set-json',
    'extraVolumes=[{"name":"extra","configMap":{"name":"extra-ca"}}]',
    '--set-json',
    'extraVolumeMounts=[{"name":"extra","mountPath":"/etc/extra","readOnly":true}]',
    '--set-json',
    'strategy={"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":0,"maxSurge":1}}',
    '--set',
    'revisionHistoryLimit=3',
    '--set-string',
    'service.annotations.example\\.com/scrape=false',
    '--set',
    'webhook.annotations.example\\.com/owner=platform',
  );
  const deployment = deploymentOf(objects);
  const injector = injectorOf(objects);
  t.deepEqual(injector.livenessProbe, {
    httpGet: { path: '/healthz', port: 'admin' },
    periodSeconds: 20,
    failureThreshold: 6,
  });
  t.deepEqual(injector.readinessProbe, { tcpSocket: { port: 'webhook' }, periodSeconds: 3 });
  t.deepEqual(injector.startupProbe, {
    httpGet: { path: '/healthz', port: 'admin' },
    failureThreshold: 30,
    periodSeconds: 2,
  });
  t.deepEqual(injector.args, ['dist/src/main.js', 'injector', '--log-level', 'debug']);
  t.is(envOf(injector, 'NODE_EXTRA_CA_CERTS'), '/etc/extra/ca.crt');
  t.deepEqual(
    injector.volumeMounts?.find((m) => m.name === 'extra'),
    { name: 'extra', mountPath: '/etc/extra', readOnly: true },
  );
  t.deepEqual(
    deployment.spec.template.spec.volumes?.find((v) => v.name === 'extra'),
    { name: 'extra', configMap: { name: 'extra-ca' } } as never,
  );
  t.deepEqual(deployment.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
  t.is(deployment.spec.revisionHistoryLimit, 3);
  const service = objects.find((o) => o.kind === 'Service')!;
  t.is(annotationsOf(service)['example.com/scrape'], 'false');
  const configuration = objects.find((o) => o.kind === 'MutatingWebhookConfiguration')!;
  t.is(annotationsOf(configuration)['example.com/owner'], 'platform');

  // The defaults: the probes the chart always had, no startup probe, the args of the image.
  const plain = valid(t);
  const defaults = injectorOf(plain);
  t.deepEqual(defaults.readinessProbe, { httpGet: { path: '/readyz', port: 'admin' }, periodSeconds: 5 });
  t.deepEqual(defaults.livenessProbe, { httpGet: { path: '/healthz', port: 'admin' }, periodSeconds: 10 });
  t.is(defaults.startupProbe, undefined);
  t.deepEqual(defaults.args, ['dist/src/main.js', 'injector']);
  t.is(deploymentOf(plain).spec.strategy, undefined);
  t.is(deploymentOf(plain).spec.revisionHistoryLimit, 10);
  t.is(injectorOf(valid(t, '--set', 'livenessProbe=null')).livenessProbe, undefined, 'null removes a probe');
  t.not(render('--set', 'strategy.type=Rolling').code, 0);
  for (const image of ['["--image","evil/sfd:1"]', '["--image=evil/sfd:1"]'])
    t.not(render('--set-json', `extraArgs=${image}`).code, 0, 'a flag would win over SFD_IMAGE');
  t.not(render('--set', 'revisionHistoryLimit=-1').code, 0);
});

test("extra selector terms narrow both webhooks, after the chart's own", (t) => {
  const objects = valid(
    t,
    '--set-json',
    'webhook.namespaceSelectorExtra=[{"key":"env","operator":"NotIn","values":["prod"]}]',
    '--set-json',
    `webhook.objectSelectorExtra=${JSON.stringify([
      { key: 'team', operator: 'In', values: ['a', 'b'] },
      { key: 'legacy', operator: 'DoesNotExist' },
    ])}`,
  );
  const plain = webhooksOf(valid(t));
  const [pods, namespaces] = webhooksOf(objects);
  for (const [index, webhook] of [pods!, namespaces!].entries()) {
    const chart = plain[index]!;
    t.deepEqual(webhook.namespaceSelector.matchExpressions, [
      ...chart.namespaceSelector.matchExpressions!,
      { key: 'env', operator: 'NotIn', values: ['prod'] },
    ]);
    t.deepEqual(webhook.objectSelector.matchExpressions, [
      ...chart.objectSelector.matchExpressions!,
      { key: 'team', operator: 'In', values: ['a', 'b'] },
      { key: 'legacy', operator: 'DoesNotExist' },
    ]);
  }
  const ns = { 'kubernetes.io/metadata.name': 'shop' };
  const asking = { 'sfd-sidecar.io/inject': 'true' };
  t.true(selects(pods!.namespaceSelector, ns) && selects(pods!.objectSelector, { ...asking, team: 'a' }));
  t.false(selects(pods!.objectSelector, asking), 'a pod outside the extra terms is not judged');
  t.false(selects(pods!.objectSelector, { ...asking, team: 'a', legacy: 'yes' }));
  t.false(selects(pods!.namespaceSelector, { ...ns, env: 'prod' }));
  for (const bad of [
    '[{"key":"team","operator":"In"}]',
    '[{"key":"team","operator":"Exists","values":["a"]}]',
    '[{"key":"team","operator":"Equals","values":["a"]}]',
    '[{"key":"bad key","operator":"Exists"}]',
  ])
    t.not(render('--set-json', `webhook.objectSelectorExtra=${bad}`).code, 0, bad);
});

/** A CA bundle as PEM text: the chart carries it into the webhook configuration without reading it. */
const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2E=\n-----END CERTIFICATE-----\n';

test('a certificate of your own: the Secret you keep, the CA you give, no Secret or rights of the chart', (t) => {
  for (const bundle of [CA_PEM, Buffer.from(CA_PEM).toString('base64')]) {
    const objects = valid(t, '--set', 'certificates.existingSecret=my-tls', '--set', `certificates.caBundle=${bundle}`);
    t.false(
      objects.some((o) => o.kind === 'Secret' || o.kind.endsWith('Role') || o.kind === 'Certificate'),
      'the chart makes no certificate and asks no rights',
    );
    for (const webhook of webhooksOf(objects))
      t.is(webhook.clientConfig.caBundle, Buffer.from(CA_PEM).toString('base64'), 'the bundle, base64 of the PEM');
    const pod = deploymentOf(objects).spec.template.spec;
    t.is(pod.volumes?.find((v) => v.name === 'tls')?.secret?.secretName, 'my-tls');
    t.is(envOf(pod.containers[0]!, 'SFD_TLS_CERT_FILE'), '/etc/sfd-injector/tls/tls.crt');
    const hook = testPodOf(objects).spec;
    t.is(envOf(hook.containers[0]!, 'CA_BUNDLE'), CA_PEM, 'the helm test trusts the CA given');
    t.is(hook.volumes, undefined, 'and reads no ca.crt the Secret may not hold');
  }
  const explicit = valid(
    t,
    '--set',
    'certificates.issuer=existingSecret',
    '--set',
    'certificates.existingSecret=my-tls',
    '--set',
    `certificates.caBundle=${Buffer.from(CA_PEM).toString('base64')}`,
  );
  t.is(deploymentOf(explicit).spec.template.spec.volumes?.[0]?.secret?.secretName, 'my-tls');

  const noBundle = render('--set', 'certificates.existingSecret=my-tls');
  t.not(noBundle.code, 0);
  t.regex(noBundle.stderr, /certificates\.issuer existingSecret needs .*certificates\.caBundle/);
  const unused = render('--set', 'certificates.issuer=chart', '--set', 'certificates.existingSecret=my-tls');
  t.not(unused.code, 0);
  t.regex(unused.stderr, /certificates\.existingSecret is used with certificates\.issuer existingSecret or auto/);
  t.not(render('--set', 'certificates.existingSecret=My_TLS', '--set', 'certificates.caBundle=x').code, 0);
});

test("cert-manager with an issuer of yours: no CA of the release's own, the serving certificate's CA injected", (t) => {
  const ref = [
    '--set',
    'certificates.certManager.issuerRef.name=corp-ca',
    '--set',
    'certificates.certManager.issuerRef.kind=ClusterIssuer',
  ];
  // auto takes cert-manager when an issuer is named, whether or not helm can see its API.
  for (const objects of [valid(t, ...ref), valid(t, ...ref, '--set', 'certificates.issuer=certManager')]) {
    t.false(
      objects.some((o) => o.kind === 'Issuer'),
      "no issuer of the release's own",
    );
    const certificates = objects.filter((o) => o.kind === 'Certificate') as unknown as {
      metadata: { name: string };
      spec: { secretName: string; issuerRef: unknown; dnsNames: string[] };
    }[];
    t.is(certificates.length, 1);
    const [serving] = certificates;
    t.deepEqual(serving!.spec.issuerRef, { name: 'corp-ca', kind: 'ClusterIssuer', group: 'cert-manager.io' });
    t.true(serving!.spec.dnsNames.includes('release-sfd-sidecar.sfd-system.svc'));
    const configuration = objects.find((o) => o.kind === 'MutatingWebhookConfiguration')!;
    t.is(annotationsOf(configuration)['cert-manager.io/inject-ca-from'], `sfd-system/${serving!.metadata.name}`);
    t.is(deploymentOf(objects).spec.template.spec.volumes?.[0]?.secret?.secretName, serving!.spec.secretName);
  }
  const own = valid(t, '--set', 'certificates.issuer=certManager');
  t.is(own.filter((o) => o.kind === 'Issuer').length, 2, "without one, the release's own CA as before");
  const unused = render(...ref, '--set', 'certificates.issuer=injector');
  t.not(unused.code, 0);
  t.regex(unused.stderr, /certificates\.certManager\.issuerRef is used with certificates\.issuer certManager or auto/);
  t.not(render('--set', 'certificates.certManager.issuerRef.kind=Vault').code, 0);
});

/**
 * values.yaml with `digest` written as the release writes it before `helm package`: by line layout, into
 * the `digest: ""` line of the top-level image block and of sidecar.image, nothing else touched.
 */
function pinnedByLines(values: string, digest: string): { text: string; written: string[] } {
  const path: { indent: number; key: string }[] = [];
  const written: string[] = [];
  const lines = values.split('\n').map((line) => {
    const key = /^( *)([A-Za-z][\w.-]*):/.exec(line);
    if (!key) return line;
    const indent = key[1]!.length;
    while (path.length > 0 && path.at(-1)!.indent >= indent) path.pop();
    path.push({ indent, key: key[2]! });
    const name = path.map((p) => p.key).join('.');
    if (!['image.digest', 'sidecar.image.digest'].includes(name) || line !== `${' '.repeat(indent)}digest: ""`)
      return line;
    written.push(name);
    return `${' '.repeat(indent)}digest: "${digest}"`;
  });
  return { text: lines.join('\n'), written };
}

test("the release's digest: written into values.yaml by line, it serves the appVersion until a tag is set", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-chart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const copy = join(dir, 'sfd-sidecar');
  cpSync(join(REPO_ROOT, CHART), copy, { recursive: true });
  const values = readFileSync(join(copy, 'values.yaml'), 'utf8');
  const pinned = pinnedByLines(values, DIGEST);
  t.deepEqual(pinned.written, ['image.digest', 'sidecar.image.digest'], 'the two lines the release writes');
  writeFileSync(join(copy, 'values.yaml'), pinned.text);
  const lint = runTool(kubeTool('helm'), ['lint', '--strict', copy, ...KEYS]);
  t.is(lint.code, 0, lint.stdout + lint.stderr);
  const objects = renderChart(KEYS, copy).objects;
  t.is(sidecarImageOf(objects), `${IMAGE_REPOSITORY}:${APP_VERSION}@${DIGEST}`);
  t.is(injectorOf(objects).image, `${IMAGE_REPOSITORY}:${APP_VERSION}@${DIGEST}`);
  const tagged = renderChart([...KEYS, '--set', 'sidecar.image.tag=0.0.9', '--set', 'image.tag=0.0.9'], copy).objects;
  t.is(sidecarImageOf(tagged), `${IMAGE_REPOSITORY}:0.0.9`, 'never 0.0.9 pinned to the release digest');
  t.is(injectorOf(tagged).image, `${IMAGE_REPOSITORY}:0.0.9`);
});

test('Chart.yaml: maintainers, and the Artifact Hub annotations follow package.json and the appVersion', (t) => {
  const chart = parse(readFileSync(join(REPO_ROOT, CHART, 'Chart.yaml'), 'utf8')) as {
    home: string;
    maintainers: { name: string; url?: string }[];
    annotations: Record<string, string>;
  };
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { license: string };
  t.true(chart.maintainers.length > 0 && chart.maintainers.every((m) => m.name.length > 0));
  t.is(chart.annotations['artifacthub.io/license'], pkg.license);
  const links = parse(chart.annotations['artifacthub.io/links']!) as { name: string; url: string }[];
  t.is(links.find((l) => l.name === 'source')?.url, chart.home);
  t.true(links.every((l) => l.url.startsWith(`${chart.home}/`) || l.url === chart.home));
  t.deepEqual(parse(chart.annotations['artifacthub.io/images']!), [
    { name: 'sfd-sidecar', image: `${IMAGE_REPOSITORY}:${APP_VERSION}` },
  ]);
  const lint = runTool(kubeTool('helm'), ['lint', '--strict', CHART, ...KEYS]);
  t.is(lint.code, 0, lint.stdout + lint.stderr);
});

/** The values this file covers, each set away from its default by ci/operator-values.yaml. */
const OPERATOR_VALUES = [
  'global.imageRegistry',
  'global.imagePullSecrets',
  'image.registry',
  'image.digest',
  'sidecar.image.digest',
  'commonLabels',
  'commonAnnotations',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'extraArgs',
  'extraVolumes',
  'extraVolumeMounts',
  'strategy',
  'revisionHistoryLimit',
  'service.annotations',
  'webhook.annotations',
  'webhook.namespaceSelectorExtra',
  'webhook.objectSelectorExtra',
  'certificates.existingSecret',
  'certificates.caBundle',
];

test('ci/operator-values.yaml sets them all at once, and they land together', (t) => {
  const file = join(CHART, 'ci/operator-values.yaml');
  const read = (path: string) => parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as Record<string, unknown>;
  const [scenario, defaults] = [read(file), read(join(CHART, 'values.yaml'))];
  const at = (values: unknown, path: string) =>
    path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], values);
  for (const path of OPERATOR_VALUES) t.notDeepEqual(at(scenario, path), at(defaults, path), path);
  const objects = valid(t, '-f', file);
  const { digest } = scenario.image as { digest: string };
  t.is(sidecarImageOf(objects), `mirror.example.internal:5000/ghcr/sfd-sidecar/sfd-sidecar:${APP_VERSION}@${digest}`);
  t.is(injectorOf(objects).image, `registry.example.internal/sfd-sidecar/sfd-sidecar:${APP_VERSION}@${digest}`);
  t.deepEqual(deploymentOf(objects).spec.template.spec.imagePullSecrets, [
    { name: 'mirror-credentials' },
    { name: 'registry-credentials' },
  ]);
  for (const webhook of webhooksOf(objects)) t.truthy(webhook.clientConfig.caBundle);
  t.true(objects.every((o) => (o.metadata.labels as Record<string, string>).team === 'platform'));
});
