// The injector as the chart installs it, found among a cluster's objects: its Deployment (the one whose
// pods carry the injector label), its pods, and what its settings say (the defaults every injected pod
// gets, the Secret holding its certificate, the webhook configuration it keeps, whether an entitlement
// policy is in force), read from the literal environment of its container.
import { SettingReader } from '../../../config/setting-reader.js';
import { isRecord } from '../../../text/is-record.js';
import { INJECTOR_LABEL } from '../../contract.js';
import type { KubeObject } from '../../manifests/pod-templates.js';
import { textOf } from './cluster-input.js';
import { readInjectionOptions, type InjectionOptions } from '../../options.js';
import { INJECTOR_SETTINGS } from '../../injector-settings.js';
import { POLICY_SETTINGS } from '../../policy-settings.js';

export interface InjectorInstall {
  readonly namespace: string;
  readonly name: string;
  readonly pods: readonly KubeObject[];
  /** The defaults it injects with. */
  readonly defaults: InjectionOptions;
  /** The Secret holding its serving certificate. */
  readonly tlsSecret: string | null;
  /** The MutatingWebhookConfiguration it keeps the CA bundle of, when it keeps one. */
  readonly webhookName: string | null;
  readonly policyInForce: boolean;
}

const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/** Whether an object's labels include every one of `selector`. */
export function matchesLabels(object: KubeObject, selector: Record<string, unknown>): boolean {
  const labels = record(record(object.metadata).labels);
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

/** The injector Deployments among the objects (one per release). */
export function findInjectors(deployments: readonly KubeObject[], pods: readonly KubeObject[]): InjectorInstall[] {
  return deployments.flatMap((deployment) => {
    const template = record(record(deployment.spec).template);
    if (record(record(template.metadata).labels)[INJECTOR_LABEL] !== 'true') return [];
    const namespace = textOf(deployment.metadata?.namespace);
    const selector = record(record(record(deployment.spec).selector).matchLabels);
    const container = records(record(template.spec).containers)[0] ?? {};
    const env = Object.fromEntries(
      records(container.env)
        .filter((e) => typeof e.name === 'string' && typeof e.value === 'string')
        .map((e) => [e.name as string, e.value as string]),
    );
    const reader = new SettingReader(env, {
      readFile: () => {
        throw new Error('a cluster check reads no file');
      },
    });
    const tlsVolume = records(record(template.spec).volumes).find((v) => v.name === 'tls');
    const tlsSecret = env[INJECTOR_SETTINGS.injectorTlsSecret.env] ?? record(tlsVolume?.secret).secretName;
    return [
      {
        namespace,
        name: textOf(deployment.metadata?.name),
        pods: pods.filter((pod) => pod.metadata?.namespace === namespace && matchesLabels(pod, selector)),
        defaults: readInjectionOptions(reader),
        tlsSecret: typeof tlsSecret === 'string' ? tlsSecret : null,
        webhookName: env[INJECTOR_SETTINGS.injectorWebhook.env] ?? null,
        policyInForce: env[POLICY_SETTINGS.policyFile.env] !== undefined,
      },
    ];
  });
}
