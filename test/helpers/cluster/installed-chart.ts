// The chart installed into the tier's cluster as docs/deploying.md says (helm install ...
// --set keystore.existingSecret=...), with the values a test adds. Where the cluster runs pods the
// chart's own injector answers; on a bare API server (envtest) the injector runs here as a local
// process with the very environment the chart's Deployment gives it, serving a certificate for
// 127.0.0.1 from the chart's existingSecret issuer, and the webhook configuration is pointed at it by
// `url`, as envtest serves webhooks. A test stops and starts the injector to see what the API server
// does while none answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { freePort } from '../../../bench/net-utils.js';
import { makeCa, signedByCa } from './test-ca.js';
import { REPO_ROOT } from '../tools.js';
import { clusterTarget, getJson, helm, kubectl, kubectlOk } from './kube.js';

export const RELEASE = 'sfd-sidecar';
export const RELEASE_NAMESPACE = 'sfd-system';
/** The documented install: the one value it requires. */
export const DOCUMENTED_VALUES = ['keystore.existingSecret=sfd-keys'];

export interface InstalledChart {
  /** Makes the injector unreachable (envtest: its process stops; a cluster: its Deployment scales to 0). */
  stopInjector(): Promise<void>;
  startInjector(): Promise<void>;
  /** The injector's log so far (envtest only; a cluster's is in its pods). */
  injectorLog(): string;
  /**
   * helm upgrade with the release's values and `values` (helm --set) and `jsonValues` (helm --set-json)
   * over them; the webhooks still reach the injector.
   */
  upgrade(values?: readonly string[], jsonValues?: readonly string[]): Promise<void>;
  uninstall(): Promise<void>;
}

interface EnvVar {
  name: string;
  value?: string;
}

interface RenderedObject {
  kind: string;
  metadata: { name: string };
  spec?: { template: { spec: { containers: { env: EnvVar[] }[] } } };
  data?: Record<string, string>;
}

/** Installs the chart with the documented value and `values` (helm --set), replacing a release there. */
export async function installChart(values: readonly string[] = []): Promise<InstalledChart> {
  const target = clusterTarget();
  await helm(['uninstall', RELEASE, '-n', RELEASE_NAMESPACE, '--wait']);
  const sets = [...DOCUMENTED_VALUES, ...values].flatMap((value) => ['--set', value]);
  if (target.mode === 'cluster') {
    await installOrThrow(sets);
    const chart = inCluster();
    await chart.startInjector();
    return chart;
  }
  const tls = await servingCertificate();
  await kubectl(['create', 'namespace', RELEASE_NAMESPACE]);
  await kubectl(['-n', RELEASE_NAMESPACE, 'delete', 'secret', 'sfd-test-webhook-tls', '--ignore-not-found']);
  await kubectlOk([
    '-n',
    RELEASE_NAMESPACE,
    'create',
    'secret',
    'tls',
    'sfd-test-webhook-tls',
    `--cert=${tls.certFile}`,
    `--key=${tls.keyFile}`,
  ]);
  await installOrThrow([
    ...sets,
    '--set',
    'certificates.issuer=existingSecret',
    '--set',
    'certificates.existingSecret=sfd-test-webhook-tls',
    '--set-file',
    `certificates.caBundle=${tls.caFile}`,
  ]);
  const chart = await localInjector(tls);
  await chart.startInjector();
  return chart;
}

async function upgradeOrThrow(values: readonly string[] = [], jsonValues: readonly string[] = []): Promise<void> {
  const sets = [
    ...values.flatMap((value) => ['--set', value]),
    ...jsonValues.flatMap((value) => ['--set-json', value]),
  ];
  const upgraded = await helm([
    'upgrade',
    RELEASE,
    'helm/sfd-sidecar',
    '-n',
    RELEASE_NAMESPACE,
    '--reuse-values',
    ...sets,
  ]);
  if (upgraded.code !== 0) throw new Error(`helm upgrade: ${upgraded.stderr}`);
}

async function installOrThrow(sets: string[]): Promise<void> {
  const installed = await helm([
    'install',
    RELEASE,
    'helm/sfd-sidecar',
    '-n',
    RELEASE_NAMESPACE,
    '--create-namespace',
    ...sets,
  ]);
  if (installed.code !== 0) throw new Error(`helm install: ${installed.stderr}`);
}

function inCluster(): InstalledChart {
  const scale = async (replicas: number) => {
    await kubectlOk(['-n', RELEASE_NAMESPACE, 'scale', `deployment/${RELEASE}`, `--replicas=${replicas}`]);
    await kubectlOk(['-n', RELEASE_NAMESPACE, 'rollout', 'status', `deployment/${RELEASE}`, '--timeout=300s']);
  };
  return {
    stopInjector: async () => {
      await scale(0);
      await kubectlOk([
        '-n',
        RELEASE_NAMESPACE,
        'wait',
        '--for=delete',
        'pods',
        '-l',
        'app.kubernetes.io/name=sfd-sidecar',
        '--timeout=300s',
      ]);
    },
    startInjector: () => scale(2),
    injectorLog: () => '',
    upgrade: upgradeOrThrow,
    uninstall: async () => void (await helm(['uninstall', RELEASE, '-n', RELEASE_NAMESPACE, '--wait'])),
  };
}

interface ServingCertificate {
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

async function servingCertificate(): Promise<ServingCertificate> {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-webhook-tls-'));
  await makeCa(dir, 'sfd-test-webhook-ca');
  await signedByCa(
    dir,
    'tls',
    '/CN=127.0.0.1',
    `subjectAltName=IP:127.0.0.1,DNS:${RELEASE}.${RELEASE_NAMESPACE}.svc\n`,
  );
  return { caFile: join(dir, 'ca.crt'), certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') };
}

/** The environment the chart's Deployment gives its injector, with the files it mounts made local. */
async function chartInjectorEnvironment(tls: ServingCertificate, dir: string): Promise<Record<string, string>> {
  const manifest = (await helm(['get', 'manifest', RELEASE, '-n', RELEASE_NAMESPACE])).stdout;
  const objects = parseAllDocuments(manifest)
    .map((d) => d.toJS() as RenderedObject | null)
    .filter((o): o is RenderedObject => o !== null);
  const deployment = objects.find((o) => o.kind === 'Deployment');
  if (deployment === undefined) throw new Error('the release renders no Deployment');
  const env = deployment.spec!.template.spec.containers[0]!.env;
  const local: Record<string, string> = {};
  for (const entry of env) {
    if (entry.value === undefined) throw new Error(`the injector's ${entry.name} is not a value: run it in a cluster`);
    local[entry.name] = entry.value;
  }
  local.SFD_TLS_CERT_FILE = tls.certFile;
  local.SFD_TLS_KEY_FILE = tls.keyFile;
  const policy = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-policy'));
  if (policy) {
    writeFileSync(join(dir, 'policy.yaml'), policy.data!['policy.yaml']!);
    local.SFD_POLICY_FILE = join(dir, 'policy.yaml');
  }
  return local;
}

async function localInjector(tls: ServingCertificate): Promise<InstalledChart> {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-injector-'));
  const [webhookPort, adminPort] = [await freePort(), await freePort()];
  const env = {
    ...(await chartInjectorEnvironment(tls, dir)),
    SFD_INJECTOR_LISTEN: `127.0.0.1:${webhookPort}`,
    SFD_ADMIN_LISTEN: `127.0.0.1:${adminPort}`,
  };
  const base = `https://127.0.0.1:${webhookPort}`;
  await pointWebhooksAt(base);
  let child: ChildProcess | null = null;
  let log = '';
  const stop = async () => {
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    child = null;
  };
  return {
    async startInjector() {
      if (child !== null) return;
      child = spawn(process.execPath, [join(REPO_ROOT, 'dist/src/main.js'), 'injector'], {
        env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      const started = child;
      await new Promise<void>((resolve, reject) => {
        const listening = () => /injector listening/.test(log) && (started.stdout!.off('data', listening), resolve());
        started.stdout!.on('data', listening);
        started.once('exit', () => reject(new Error(`the local injector stopped: ${log}`)));
      });
    },
    stopInjector: stop,
    injectorLog: () => log,
    async upgrade(values = [], jsonValues = []) {
      // helm patches the configuration it rendered: with a URL in place of the Service, both would be set.
      await restoreRenderedWebhooks();
      await upgradeOrThrow(values, jsonValues);
      await pointWebhooksAt(base);
    },
    async uninstall() {
      await stop();
      await helm(['uninstall', RELEASE, '-n', RELEASE_NAMESPACE, '--wait']);
    },
  };
}

/** The chart's webhook configuration, its Service replaced by a URL on this machine (envtest's way). */
async function pointWebhooksAt(base: string): Promise<void> {
  const config = await getJson<{ webhooks: { clientConfig: { service?: { path?: string }; url?: string } }[] }>([
    'get',
    'mutatingwebhookconfiguration',
    RELEASE,
  ]);
  for (const webhook of config.webhooks) {
    const path = webhook.clientConfig.service?.path ?? '/';
    delete webhook.clientConfig.service;
    webhook.clientConfig.url = `${base}${path}`;
  }
  await kubectlOk(['replace', '-f', '-'], JSON.stringify(config));
}

/** The chart's webhook configuration as the release rendered it, its Service in place of the URL. */
async function restoreRenderedWebhooks(): Promise<void> {
  const manifest = (await helm(['get', 'manifest', RELEASE, '-n', RELEASE_NAMESPACE])).stdout;
  const config = parseAllDocuments(manifest)
    .map((d) => d.toJS() as RenderedObject | null)
    .find((o) => o?.kind === 'MutatingWebhookConfiguration');
  if (!config) throw new Error('the release renders no MutatingWebhookConfiguration');
  await kubectlOk(['replace', '-f', '-'], JSON.stringify(config));
}
