// The injector keeps its own serving certificate: it reads its Secret, renews what the plan says, writes
// the Secret back only if nobody wrote it in between (its resourceVersion), and puts the CA bundle into
// its webhook configuration. Every replica does the same on a timer and serves what the Secret holds, so
// replicas agree without electing a leader. The Secret's data never reaches a log line.
import type { Logger } from '../../observability/logger.js';
import { planCertificates, type CertificatePolicy, type StoredCertificates } from './certificate-plan.js';
import type { KubeApi, KubeObject } from './kube-api.js';
import { loadPemPair, type TlsPair } from './tls-pair.js';
import { isRecord } from '../../text/is-record.js';

export interface ManagedCertificatesOptions {
  readonly api: KubeApi;
  readonly namespace: string;
  readonly secretName: string;
  readonly webhookName: string;
  readonly dnsNames: readonly string[];
  readonly policy: CertificatePolicy;
  readonly now: () => number;
  readonly logger: Logger;
}

export interface ManagedCertificates {
  /** Brings the Secret and the webhook configuration up to date; the pair to serve, or why there is none. */
  reconcile(): Promise<{ ok: true; pair: TlsPair } | { ok: false; problem: string }>;
}

const NEXT_SINCE = 'sfd-sidecar.io/next-ca-since';
const ATTEMPTS = 3;

export function createManagedCertificates(options: ManagedCertificatesOptions): ManagedCertificates {
  const { api, logger } = options;
  const secretPath = `/api/v1/namespaces/${options.namespace}/secrets/${options.secretName}`;
  const webhookPath = `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${options.webhookName}`;
  const secretLabel = `Secret ${options.namespace}/${options.secretName}`;
  const webhookLabel = `MutatingWebhookConfiguration ${options.webhookName}`;

  const reconcileOnce = async (): Promise<
    { ok: true; pair: TlsPair } | { ok: false; problem: string; conflict?: boolean }
  > => {
    const secret = await api.get(secretPath);
    if (!secret.ok) return { ok: false, problem: `reading ${secretLabel}: ${explain(secret.status, secret.message)}` };
    const webhook = await api.get(webhookPath);
    if (!webhook.ok)
      return { ok: false, problem: `reading ${webhookLabel}: ${explain(webhook.status, webhook.message)}` };
    const trusted = webhookBundles(webhook.object);
    const plan = await planCertificates(storedIn(secret.object), {
      now: options.now(),
      dnsNames: options.dnsNames,
      trusted,
      policy: options.policy,
    });
    if (plan.changes.length > 0) {
      const written = await api.replace(secretPath, withCertificates(secret.object, plan.certificates, plan.bundle));
      if (!written.ok)
        return {
          ok: false,
          conflict: written.status === 409,
          problem: `writing ${secretLabel}: ${explain(written.status, written.message)}`,
        };
      for (const change of plan.changes) logger.info('webhook certificates changed', { change });
    }
    const wanted = Buffer.from(plan.bundle).toString('base64');
    if (trusted.length === 0 || webhookCaBundles(webhook.object).some((bundle) => bundle !== wanted)) {
      const patched = await api.replace(webhookPath, withCaBundle(webhook.object, wanted));
      if (!patched.ok)
        return {
          ok: false,
          conflict: patched.status === 409,
          problem: `writing the CA bundle into ${webhookLabel}: ${explain(patched.status, patched.message)}`,
        };
      logger.info('webhook configuration trusts the CA bundle', { webhook: options.webhookName });
    }
    const serving = plan.certificates.serving!;
    const pair = loadPemPair(serving.cert, serving.key);
    return pair.ok ? pair : { ok: false, problem: `${secretLabel}: ${pair.problem}` };
  };

  return {
    async reconcile() {
      let last: { ok: false; problem: string } = { ok: false, problem: 'not tried' };
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const result = await reconcileOnce();
        if (result.ok) return result;
        last = { ok: false, problem: result.problem };
        // Another replica wrote first: read again and take what it wrote.
        if (!result.conflict) break;
      }
      return last;
    },
  };
}

function explain(status: number, message: string): string {
  if (status === 404)
    return `not found (${message}); the chart creates it, and \`helm upgrade\` brings it back if it was deleted`;
  if (status === 401 || status === 403)
    return `not allowed (${message}); the injector's Role and ClusterRole grant get and update on it by name`;
  return message;
}

const text = (data: Record<string, unknown>, key: string): string | undefined => {
  const value = data[key];
  return typeof value === 'string' && value !== '' ? Buffer.from(value, 'base64').toString() : undefined;
};

function storedIn(secret: KubeObject): StoredCertificates {
  const data = isRecord(secret.data) ? secret.data : {};
  const pair = (cert: string, key: string) => {
    const certText = text(data, cert);
    const keyText = text(data, key);
    return certText === undefined || keyText === undefined ? undefined : { cert: certText, key: keyText };
  };
  const annotations = isRecord(secret.metadata.annotations) ? secret.metadata.annotations : {};
  const written = annotations[NEXT_SINCE];
  const since = typeof written === 'string' ? Date.parse(written) : Number.NaN;
  const next = pair('ca-next.crt', 'ca-next.key');
  return {
    current: pair('ca-current.crt', 'ca-current.key'),
    next: next === undefined || Number.isNaN(since) ? undefined : { ...next, since },
    previous: text(data, 'ca-previous.crt'),
    serving: pair('tls.crt', 'tls.key'),
  };
}

function withCertificates(secret: KubeObject, stored: StoredCertificates, bundle: string): KubeObject {
  const entries: Record<string, string | undefined> = {
    'ca.crt': bundle,
    'ca-current.crt': stored.current?.cert,
    'ca-current.key': stored.current?.key,
    'ca-next.crt': stored.next?.cert,
    'ca-next.key': stored.next?.key,
    'ca-previous.crt': stored.previous,
    'tls.crt': stored.serving?.cert,
    'tls.key': stored.serving?.key,
  };
  const data = Object.fromEntries(
    Object.entries(entries)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
  );
  const annotations = { ...(isRecord(secret.metadata.annotations) ? secret.metadata.annotations : {}) };
  delete annotations[NEXT_SINCE];
  if (stored.next !== undefined) annotations[NEXT_SINCE] = new Date(stored.next.since).toISOString();
  return { ...secret, metadata: { ...secret.metadata, annotations }, data };
}

function webhooksOf(configuration: KubeObject): Record<string, unknown>[] {
  return Array.isArray(configuration.webhooks) ? configuration.webhooks.filter(isRecord) : [];
}

function webhookCaBundles(configuration: KubeObject): string[] {
  return webhooksOf(configuration).map((webhook) => {
    const client = isRecord(webhook.clientConfig) ? webhook.clientConfig : {};
    return typeof client.caBundle === 'string' ? client.caBundle : '';
  });
}

/** The bundles the webhooks trust now, decoded; none when any webhook trusts none. */
function webhookBundles(configuration: KubeObject): string[] {
  const bundles = webhookCaBundles(configuration);
  if (bundles.length === 0 || bundles.some((bundle) => bundle === '')) return [];
  return bundles.map((bundle) => Buffer.from(bundle, 'base64').toString());
}

function withCaBundle(configuration: KubeObject, caBundle: string): KubeObject {
  const webhooks = webhooksOf(configuration).map((webhook) => ({
    ...webhook,
    clientConfig: { ...(isRecord(webhook.clientConfig) ? webhook.clientConfig : {}), caBundle },
  }));
  return { ...configuration, webhooks };
}
