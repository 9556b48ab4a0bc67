// Where the injector's serving certificate comes from: files (cert-manager, or any Secret mounted by
// hand), re-read when they change; or a Secret the injector keeps itself through the Kubernetes API.
import { ConfigError } from '../../config/config-error.js';
import type { SettingReader } from '../../config/setting-reader.js';
import { loadTlsPair, watchTlsFiles } from '../certificates/tls-files.js';
import type { TlsPair } from '../certificates/tls-pair.js';
import { describeFileProblem } from '../../files/regular-file.js';
import type { Logger } from '../../observability/logger.js';
import type { ServeDeps } from '../../command/cli-io.js';
import { INJECTOR_SETTINGS } from '../injector-settings.js';

/** The certificate files are re-read, and the managed Secret reconciled, this often. */
const RECONCILE_INTERVAL_MS = 60_000;
/**
 * A read or a reconcile not done after this long is given up until the next one: longer than a
 * reconcile's API calls take when each ends on its own timeout, so it catches only a call that hangs.
 */
const STALLED_AFTER_MS = 5 * 60_000;
const API_TIMEOUT_MS = 10_000;
const SMALL_FILE_BYTES = 64 * 1024;

export interface CertificateSource {
  readonly initial: TlsPair;
  readonly watch: (use: (pair: TlsPair) => void, current: TlsPair) => () => void;
}

/** Checks the settings; the source is then made by `open` once a logger exists. */
export function readCertificateSettings(
  r: SettingReader,
  deps: ServeDeps,
): (logger: Logger) => Promise<CertificateSource> {
  if (r.isSet(INJECTOR_SETTINGS.injectorTlsSecret)) return readManagedSettings(r, deps);
  const certFile = r.raw(INJECTOR_SETTINGS.tlsCertFile)?.trim();
  const keyFile = r.raw(INJECTOR_SETTINGS.tlsKeyFile)?.trim();
  if (certFile === undefined)
    r.problems.push(
      `${INJECTOR_SETTINGS.tlsCertFile.env}: required, the webhook's certificate (PEM), unless ` +
        `${INJECTOR_SETTINGS.injectorTlsSecret.env} names a Secret the injector keeps its own in; ` +
        'the API server speaks to webhooks over HTTPS only',
    );
  if (keyFile === undefined)
    r.problems.push(`${INJECTOR_SETTINGS.tlsKeyFile.env}: required, the webhook's private key (PEM)`);
  const files = { certFile: certFile!, keyFile: keyFile!, readFile: deps.readFileAsync };
  return async (logger) => {
    const loaded = await loadTlsPair(files);
    if (!loaded.ok)
      throw new ConfigError([
        `${INJECTOR_SETTINGS.tlsCertFile.env}/${INJECTOR_SETTINGS.tlsKeyFile.env}: ${loaded.problem}`,
      ]);
    return {
      initial: loaded.pair,
      watch: (use, current) =>
        watchTlsFiles(files, {
          logger,
          use,
          current,
          intervalMs: RECONCILE_INTERVAL_MS,
          stalledAfterMs: STALLED_AFTER_MS,
        }),
    };
  };
}

function readManagedSettings(r: SettingReader, deps: ServeDeps): (logger: Logger) => Promise<CertificateSource> {
  const secretName = r.value(INJECTOR_SETTINGS.injectorTlsSecret);
  const webhookName = r.value(INJECTOR_SETTINGS.injectorWebhook);
  const service = r.value(INJECTOR_SETTINGS.injectorService);
  const both = `${INJECTOR_SETTINGS.injectorTlsSecret.env} is set`;
  if (webhookName === undefined)
    r.problems.push(
      `${INJECTOR_SETTINGS.injectorWebhook.env}: required when ${both}, the webhook configuration to keep`,
    );
  if (service === undefined)
    r.problems.push(
      `${INJECTOR_SETTINGS.injectorService.env}: required when ${both}, the webhook's Service as NAME.NAMESPACE`,
    );
  for (const setting of [INJECTOR_SETTINGS.tlsCertFile, INJECTOR_SETTINGS.tlsKeyFile])
    if (r.isSet(setting)) r.problems.push(`${setting.env}: not used when ${both}; unset one of them`);
  const credentials =
    r.value(INJECTOR_SETTINGS.injectorApiCredentials) ?? INJECTOR_SETTINGS.injectorApiCredentials.default;
  const host = deps.env.KUBERNETES_SERVICE_HOST;
  const port = deps.env.KUBERNETES_SERVICE_PORT ?? '443';
  if (host === undefined || host === '')
    r.problems.push(
      `${INJECTOR_SETTINGS.injectorTlsSecret.env}: the injector keeps its certificate through the ` +
        'Kubernetes API, and KUBERNETES_SERVICE_HOST is not set: it runs in a pod only',
    );
  return async (logger) => {
    let ca: string;
    try {
      ca = deps.readFile(`${credentials}/ca.crt`, SMALL_FILE_BYTES);
    } catch (error) {
      throw new ConfigError([
        `${INJECTOR_SETTINGS.injectorTlsSecret.env}: the API server's CA (${credentials}/ca.crt) cannot be read: ` +
          `${describeFileProblem(error)}; the pod needs its service account token mounted`,
      ]);
    }
    // The certificate authority (and node-forge) loads only in this mode: an injector given files does
    // not carry it.
    const [
      { DEFAULT_CERTIFICATE_POLICY },
      { createKubeApi },
      { createManagedCertificates },
      { watchManagedCertificates },
    ] = await Promise.all([
      import('../certificates/certificate-plan.js'),
      import('../certificates/kube-api.js'),
      import('../certificates/managed-certificates.js'),
      import('../certificates/watch-managed-certificates.js'),
    ]);
    const api = createKubeApi({
      baseUrl: `https://${host!.includes(':') ? `[${host}]` : host}:${port}`,
      ca,
      token: async () => (await deps.readFileAsync(`${credentials}/token`, SMALL_FILE_BYTES)).trim(),
      timeoutMs: API_TIMEOUT_MS,
    });
    const managed = createManagedCertificates({
      api,
      namespace: service!.namespace,
      secretName: secretName!,
      webhookName: webhookName!,
      dnsNames: serviceDnsNames(service!),
      policy: DEFAULT_CERTIFICATE_POLICY,
      now: deps.now,
      logger,
    });
    const first = await managed.reconcile();
    if (!first.ok) throw new ConfigError([`${INJECTOR_SETTINGS.injectorTlsSecret.env}: ${first.problem}`]);
    return {
      initial: first.pair,
      watch: (use, current) =>
        watchManagedCertificates(managed, {
          logger,
          use,
          current,
          intervalMs: RECONCILE_INTERVAL_MS,
          stalledAfterMs: STALLED_AFTER_MS,
        }),
    };
  };
}

/** The names the API server may use for a Service: the webhook's clientConfig uses NAME.NAMESPACE.svc. */
export function serviceDnsNames(service: { name: string; namespace: string }): string[] {
  const { name, namespace } = service;
  return [`${name}.${namespace}.svc`, name, `${name}.${namespace}`, `${name}.${namespace}.svc.cluster.local`];
}
