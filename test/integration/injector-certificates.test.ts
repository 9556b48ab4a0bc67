// The injector keeping its own certificates through the Kubernetes API, against a fake API server (no
// real one runs here) holding the Secret and webhook configuration the chart renders: the Secret filled
// and the webhook configuration's CA bundle written on first start, nothing written when nothing is
// due, replicas agreeing, and a year of renewals on a moved clock during which the API server, reading
// the webhook configuration late, never rejects the certificate a replica serves.
import { X509Certificate } from 'node:crypto';
import https from 'node:https';
import test from 'ava';
import { DEFAULT_CERTIFICATE_POLICY } from '../../src/injection/certificates/certificate-plan.js';
import { createKubeApi } from '../../src/injection/certificates/kube-api.js';
import { createManagedCertificates } from '../../src/injection/certificates/managed-certificates.js';
import { startInjector } from '../../src/injection/webhook/start-injector.js';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { serviceDnsNames } from '../../src/injection/commands/injector-certificates.js';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli-process.js';
import { kubeTool } from '../helpers/k8s-tools.js';
import { runTool } from '../helpers/tools.js';
import { startFakeKubeApi, type FakeKubeApi } from '../helpers/fake-kube-api.js';
import { DEFAULTS } from '../helpers/injection.js';
import { captureLogs, type CapturedLogs } from '../helpers/log-capture.js';
import type { Teardown } from '../helpers/injector-stack.js';

const DAY = 86_400_000;
const API_SERVER_NAME = 'release-sfd-sidecar.sfd-system.svc';

/** What the chart installs for the injector to keep: its Secret, its webhook configuration, its settings. */
function chartObjects() {
  const args = ['template', 'release', 'helm/sfd-sidecar', '-n', 'sfd-system', '--set', 'keystore.existingSecret=k'];
  const result = runTool(kubeTool('helm'), args);
  if (result.code !== 0) throw new Error(result.stderr);
  const objects = parseAllDocuments(result.stdout).map((d) => d.toJSON() as Record<string, unknown>);
  const ofKind = (kind: string) => objects.find((o) => o?.kind === kind)!;
  const env = Object.fromEntries(
    (ofKind('Deployment') as unknown as DeploymentLike).spec.template.spec.containers[0]!.env.map((e) => [
      e.name,
      e.value,
    ]),
  );
  const [name, namespace] = env.SFD_INJECTOR_SERVICE!.split('.') as [string, string];
  return {
    secret: ofKind('Secret'),
    webhook: ofKind('MutatingWebhookConfiguration'),
    secretName: env.SFD_INJECTOR_TLS_SECRET!,
    webhookName: env.SFD_INJECTOR_WEBHOOK!,
    service: { name, namespace },
  };
}
type DeploymentLike = { spec: { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } } };

const CHART = chartObjects();
const SECRET = `/api/v1/namespaces/${CHART.service.namespace}/secrets/${CHART.secretName}`;
const WEBHOOK = `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${CHART.webhookName}`;
const rendered = () => ({ [SECRET]: structuredClone(CHART.secret), [WEBHOOK]: structuredClone(CHART.webhook) });

function replica(api: FakeKubeApi, now: () => number, logs: CapturedLogs = captureLogs()) {
  return createManagedCertificates({
    api: createKubeApi({ baseUrl: api.baseUrl, ca: api.ca, token: () => Promise.resolve(api.token), timeoutMs: 5000 }),
    namespace: CHART.service.namespace,
    secretName: CHART.secretName,
    webhookName: CHART.webhookName,
    dnsNames: serviceDnsNames(CHART.service),
    policy: DEFAULT_CERTIFICATE_POLICY,
    now,
    logger: logs.logger,
  });
}

const decode = (value: unknown) => Buffer.from(String(value), 'base64').toString();
const secretData = (api: FakeKubeApi) => (api.object(SECRET)!.data ?? {}) as Record<string, string>;
const caBundles = (api: FakeKubeApi) =>
  (api.object(WEBHOOK)!.webhooks as { clientConfig: { caBundle?: string } }[]).map((w) => w.clientConfig.caBundle);

/** What the API server checks of a webhook's certificate, at its own time `now`, against the bundle it holds. */
function apiServerAccepts(bundle: string, served: string, now: number): boolean {
  const leaf = new X509Certificate(served);
  const during = (cert: X509Certificate) => Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);
  if (!during(leaf) || leaf.checkHost(API_SERVER_NAME) === undefined) return false;
  return (bundle.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []).some((pem) => {
    const ca = new X509Certificate(pem);
    return ca.ca && during(ca) && leaf.checkIssued(ca) && leaf.verify(ca.publicKey);
  });
}

async function admissionCall(port: number, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      { host: '127.0.0.1', port, servername: API_SERVER_NAME, ca, path: '/mutate', method: 'POST', agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: '1' } }));
  });
}

async function startServing(
  t: Teardown & { teardown: (f: () => Promise<void>) => void },
  pair: Parameters<typeof startInjector>[0]['tls']['initial'],
) {
  const injector = await startInjector({
    listen: { host: '127.0.0.1', port: 0 },
    adminListen: { host: '127.0.0.1', port: 0 },
    defaults: DEFAULTS,
    tls: { initial: pair, watch: () => () => undefined },
    limits: DEFAULT_LIMITS,
    logger: captureLogs().logger,
    metrics: createMetrics('injector'),
    now: Date.now,
  });
  t.teardown(() => injector.close(0));
  return injector;
}

test('on first start the injector fills its Secret, and the API server trusts what it serves', async (t) => {
  const api = await startFakeKubeApi(t, rendered());
  const logs = captureLogs();
  const first = await replica(api, Date.now, logs).reconcile();
  if (!first.ok) return t.fail(first.problem);
  const data = secretData(api);
  t.deepEqual(Object.keys(data).sort(), ['ca-current.crt', 'ca-current.key', 'ca.crt', 'tls.crt', 'tls.key']);
  t.is(api.object(SECRET)!.type, 'kubernetes.io/tls', 'the type the chart gave it, which cannot change');
  t.is(decode(data['tls.crt']), first.pair.cert);
  t.deepEqual(caBundles(api), [data['ca.crt'], data['ca.crt']], 'both webhooks trust the CA bundle');
  t.deepEqual(
    (api.object(SECRET)!.metadata as { labels: unknown }).labels,
    (CHART.secret.metadata as { labels: unknown }).labels,
    "the chart's labels kept",
  );
  const injector = await startServing(t, first.pair);
  t.is(await admissionCall(injector.address.port, decode(caBundles(api)[0])), 200, 'a real TLS client is admitted');
  t.true(apiServerAccepts(decode(data['ca.crt']), first.pair.cert, Date.now()));
  const touched = new Set(api.calls.map((call) => `${call.method} ${call.path}`));
  t.deepEqual([...touched].sort(), [`GET ${SECRET}`, `GET ${WEBHOOK}`, `PUT ${SECRET}`, `PUT ${WEBHOOK}`].sort());
  t.false(/BEGIN|PRIVATE|MII/.test(logs.text()), 'no certificate or key in the log');
  t.true(logs.lines().some((line) => line.event === 'webhook certificates changed'));

  const writes = api.calls.filter((call) => call.method === 'PUT').length;
  const again = await replica(api, Date.now).reconcile();
  t.true(again.ok && again.pair.cert === first.pair.cert, 'the same certificate is served');
  t.is(api.calls.filter((call) => call.method === 'PUT').length, writes, 'nothing written when nothing is due');
});

test('replicas starting together serve one certificate: the slower write is refused and reads the other', async (t) => {
  const api = await startFakeKubeApi(t, rendered());
  const [a, b, c] = await Promise.all([0, 1, 2].map(() => replica(api, Date.now).reconcile()));
  if (!a!.ok || !b!.ok || !c!.ok) return t.fail('a replica got no certificate');
  t.is(a!.pair.cert, b!.pair.cert);
  t.is(b!.pair.cert, c!.pair.cert);
  t.is(decode(secretData(api)['tls.crt']), a!.pair.cert);
  t.true(apiServerAccepts(decode(caBundles(api)[0]), a!.pair.cert, Date.now()));
});

test('400 days, a CA replaced: the API server, reading the webhook configuration late, never refuses', async (t) => {
  const api = await startFakeKubeApi(t, rendered());
  let now = Date.now();
  const clock = () => now;
  const fast = replica(api, clock);
  const slow = replica(api, clock);
  const served: { fast?: string; slow?: string } = {};
  const serving = new Set<string>();
  const signers = new Set<string>();
  let refused = 0;
  // The API server reads the webhook configuration late: here, what it held half an hour before.
  const lateBy = 30 * 60_000;
  const history: { at: number; bundle: string }[] = [];
  for (let i = 0; now < Date.now() + 400 * DAY; i++) {
    const fastResult = await fast.reconcile();
    if (!fastResult.ok) return t.fail(fastResult.problem);
    served.fast = fastResult.pair.cert;
    // The slower replica reconciles every other step, so it serves an older certificate for a while.
    if (i % 2 === 0) {
      const slowResult = await slow.reconcile();
      if (!slowResult.ok) return t.fail(slowResult.problem);
      served.slow = slowResult.pair.cert;
    }
    history.push({ at: now, bundle: decode(caBundles(api)[0]) });
    const late = history.findLast((entry) => entry.at <= now - lateBy) ?? history[0]!;
    for (const trusted of [late.bundle, history.at(-1)!.bundle])
      for (const cert of [served.fast, served.slow]) if (!apiServerAccepts(trusted, cert!, now)) refused += 1;
    serving.add(served.fast);
    signers.add(decode(secretData(api)['ca-current.crt']));
    // A day at a time, and every ten minutes while a CA is being replaced, as often as replicas reconcile.
    now += secretData(api)['ca-next.crt'] === undefined ? DAY : 10 * 60_000;
  }
  t.is(refused, 0);
  t.true(serving.size >= 19, `${serving.size} serving certificates over 400 days (one every 20 days)`);
  t.is(signers.size, 2, 'the CA was replaced once');
  t.is(decode(caBundles(api)[0]).match(/BEGIN CERTIFICATE/g)?.length, 1, 'the expired CA left the bundle');
});

test('an API server that refuses, or lost the Secret: no change, and a message naming the fix', async (t) => {
  const api = await startFakeKubeApi(t, rendered());
  const managed = replica(api, Date.now);
  t.true((await managed.reconcile()).ok);
  api.failNext(1, 403, 'secrets "sfd-sidecar-webhook-tls" is forbidden');
  const forbidden = await managed.reconcile();
  t.false(forbidden.ok);
  t.regex(forbidden.ok ? '' : forbidden.problem, /is forbidden.*Role and ClusterRole grant get and update/);
  api.remove(SECRET);
  const missing = await managed.reconcile();
  t.regex(missing.ok ? '' : missing.problem, /not found.*helm upgrade/);
});

test('`injector` keeping its own Secret needs the webhook and the Service, and runs in a pod', async (t) => {
  const result = await runCli(['injector'], { env: { SFD_INJECTOR_TLS_SECRET: 'sfd-sidecar-webhook-tls' } });
  t.is(result.code, 2);
  t.regex(result.stderr, /SFD_INJECTOR_WEBHOOK: required when SFD_INJECTOR_TLS_SECRET is set/);
  t.regex(result.stderr, /SFD_INJECTOR_SERVICE: required when SFD_INJECTOR_TLS_SECRET is set/);
  t.regex(result.stderr, /KUBERNETES_SERVICE_HOST is not set/);
});
