// The webhook configuration of each injector: present, with the selectors the chart writes (so that a
// pod that did not ask never reaches the injector, and kube-system and the injector's own namespace are
// never touched), and with a CA bundle that trusts the certificate the injector serves.
import { X509Certificate } from 'node:crypto';
import {
  ASKING_VALUES,
  DECLINING_VALUES,
  INJECT_LABEL,
  INJECTOR_LABEL,
  NAMESPACE_NAME_LABEL,
  namespacesPassedOver,
} from '../../contract.js';
import { isRecord } from '../../../text/is-record.js';
import type { KubeObject } from '../../manifests/pod-templates.js';
import { textOf, type ClusterInput } from '../cluster/cluster-input.js';
import type { InjectorInstall } from '../cluster/injector-install.js';
import { notChecked, type CheckResult } from './check-result.js';

const CHECK = 'webhook';
const TRUST = 'CA bundle';
/** The serving certificate is warned about this long before it expires, as the chart's alert does. */
const EXPIRY_WARNING_MS = 14 * 24 * 3600 * 1000;

type Json = Record<string, unknown>;
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const record = (value: unknown): Json => (isRecord(value) ? value : {});

/** The configuration an injector keeps or the chart made for it. */
export function webhookConfigurationOf(cluster: ClusterInput, injector: InjectorInstall): KubeObject | undefined {
  const named = injector.webhookName ?? injector.name;
  return cluster.webhookConfigurations.find((c) => c.metadata?.name === named);
}

export function checkWebhook(cluster: ClusterInput, injectors: readonly InjectorInstall[], now: number): CheckResult[] {
  const missing = notChecked(CHECK, ['MutatingWebhookConfiguration'], cluster.kinds);
  if (missing.length > 0) return missing;
  return injectors.flatMap((injector) => {
    const configuration = webhookConfigurationOf(cluster, injector);
    if (configuration === undefined)
      return [
        {
          check: CHECK,
          status: 'fail' as const,
          detail: `no MutatingWebhookConfiguration ${injector.webhookName ?? injector.name}: no pod gets the sidecar`,
          fix:
            'helm upgrade --install RELEASE oci://ghcr.io/sfd-sidecar/charts/sfd-sidecar ' +
            `-n ${injector.namespace} --reuse-values`,
        },
      ];
    const webhooks = records(configuration.webhooks);
    const name = String(configuration.metadata?.name);
    const differences = webhooks.flatMap((webhook) => selectorProblems(webhook, injector.namespace));
    const policies = [...new Set(webhooks.map((w) => textOf(w.failurePolicy) || 'Fail'))].join(', ');
    const results: CheckResult[] = [
      differences.length === 0
        ? {
            check: CHECK,
            status: 'ok',
            detail:
              `${name}: ${webhooks.length} webhooks with the chart's selectors, failurePolicy ${policies}` +
              (policies === 'Ignore' ? ' (pods that ask start without the sidecar while no injector answers)' : ''),
          }
        : {
            check: CHECK,
            status: 'warn',
            detail: `${name}: ${differences.join('; ')}`,
            fix: `helm upgrade RELEASE -n ${injector.namespace} --reuse-values (the chart writes the selectors)`,
          },
    ];
    if (cluster.kinds.has('Secret')) results.push(...trustResults(cluster, injector, webhooks, name, now));
    else results.push(...notChecked(TRUST, ['Secret'], cluster.kinds));
    return results;
  });
}

function selectorProblems(webhook: Json, namespace: string): string[] {
  const name = String(webhook.name);
  const problems: string[] = [];
  const expressions = (selector: unknown) => records(record(selector).matchExpressions);
  const has = (list: Json[], key: string, operator: string, value?: string) =>
    list.some(
      (e) =>
        e.key === key &&
        e.operator === operator &&
        (value === undefined || (Array.isArray(e.values) && e.values.includes(value))),
    );
  // An install from before both spellings were read selects by one of them only: a namespace or pod
  // labelled with the other is passed over, and its owner finds no sidecar.
  const missed = (list: Json[], operator: string, values: readonly string[]) =>
    list.some((e) => e.key === INJECT_LABEL && e.operator === operator)
      ? values.filter((value) => !has(list, INJECT_LABEL, operator, value))
      : null;
  const namespaces = expressions(webhook.namespaceSelector);
  const label = (values: string[]) => `${INJECT_LABEL}=${values.join(' or ')}`;
  const namespacesIn = missed(namespaces, 'In', ASKING_VALUES);
  const namespacesNotIn = missed(namespaces, 'NotIn', ASKING_VALUES);
  if (namespacesIn === null && namespacesNotIn === null)
    problems.push(`${name} does not select namespaces by ${INJECT_LABEL}`);
  if (namespacesIn?.length) problems.push(`${name} passes over namespaces labelled ${label(namespacesIn)}`);
  if (namespacesNotIn?.length)
    problems.push(`${name} does not leave namespaces labelled ${label(namespacesNotIn)} to the namespace webhook`);
  for (const excluded of namespacesPassedOver([namespace]))
    if (!has(namespaces, NAMESPACE_NAME_LABEL, 'NotIn', excluded))
      problems.push(`${name} does not exclude the namespace ${excluded}`);
  const objects = expressions(webhook.objectSelector);
  const podsIn = missed(objects, 'In', ASKING_VALUES);
  const podsNotIn = missed(objects, 'NotIn', DECLINING_VALUES);
  if (podsIn === null && podsNotIn === null) problems.push(`${name} does not select pods by the label ${INJECT_LABEL}`);
  if (podsIn?.length) problems.push(`${name} passes over pods labelled ${label(podsIn)}`);
  if (podsNotIn?.length) problems.push(`${name} injects pods that decline with ${label(podsNotIn)}`);
  if (!has(objects, INJECTOR_LABEL, 'DoesNotExist'))
    problems.push(`${name} does not leave the injector's own pods out`);
  if (webhook.sideEffects !== 'None') problems.push(`${name} does not declare sideEffects: None`);
  return problems;
}

function trustResults(cluster: ClusterInput, injector: InjectorInstall, webhooks: Json[], name: string, now: number) {
  const secret = cluster.secrets.find((s) => s.namespace === injector.namespace && s.name === injector.tlsSecret);
  const fix = `kubectl -n ${injector.namespace} logs deploy/${injector.name} | grep -i certificate`;
  if (secret?.certificate === undefined || secret.certificate === '')
    return [
      {
        check: TRUST,
        status: 'fail' as const,
        detail: `the Secret ${injector.namespace}/${injector.tlsSecret ?? '(none)'} holds no serving certificate`,
        fix,
      },
    ];
  let serving: X509Certificate;
  try {
    serving = new X509Certificate(secret.certificate);
  } catch {
    return [{ check: TRUST, status: 'fail' as const, detail: `${secret.name}: tls.crt is not a certificate`, fix }];
  }
  const untrusting = webhooks.filter((w) => !trusts(textOf(record(w.clientConfig).caBundle), serving));
  const results: CheckResult[] = [
    untrusting.length === 0
      ? { check: TRUST, status: 'ok', detail: `${name} trusts the certificate the injector serves` }
      : {
          check: TRUST,
          status: 'fail',
          detail:
            `${untrusting.map((w) => String(w.name)).join(', ')} do not trust the certificate the injector serves: ` +
            'the API server cannot call the injector',
          fix:
            `${fix} (the injector writes the bundle within a minute; with cert-manager, check that cainjector ` +
            'runs)',
        },
  ];
  const expires = Date.parse(serving.validTo);
  if (expires - now < EXPIRY_WARNING_MS)
    results.push({
      check: TRUST,
      status: expires <= now ? 'fail' : 'warn',
      detail: `the serving certificate in ${secret.name} expires ${serving.validTo}`,
      fix,
    });
  return results;
}

/** Whether a base64 bundle of CA certificates holds the issuer of the certificate. */
function trusts(bundle: string, serving: X509Certificate): boolean {
  const pem = Buffer.from(bundle, 'base64').toString('utf8');
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
  return blocks.some((block) => {
    try {
      const ca = new X509Certificate(block);
      return serving.checkIssued(ca) && serving.verify(ca.publicKey);
    } catch {
      return false;
    }
  });
}
