// `sfd-sidecar check [--json] [FILE|-]`: the cluster-side health check over what `kubectl get
// namespaces,pods,deployments,secrets,mutatingwebhookconfigurations,validatingadmissionpolicies,
// validatingadmissionpolicybindings -A -o json` prints, or over the cluster itself when no FILE is given
// (read with the kubeconfig, Secrets as their metadata only), one line per check as ok, warn, fail or not
// checked, each warning and failure with the command that fixes it; exit 0 when nothing fails, 1 when
// something does, 2 when the input cannot be read or holds no object of a kind it checks.
// `sfd-sidecar check --pod NAME [-n NS] [FILE|-]`: why that pod was (not) injected, over the same input or
// a manifest; exit 0 when it gets or keeps the sidecar, 1 when it would run without it, 2 when the input
// cannot be read or holds no such pod.
import { ConfigError } from '../../config/config-error.js';
import { isDnsLabel } from '../../config/parsers.js';
import { nothingToRead } from '../../command/nothing-to-read.js';
import { formatObject } from '../../command/format-object.js';
import { outputFormatOf, type OutputFormat } from '../../command/output-format.js';
import type { CliIo } from '../../command/cli-io.js';
import { readerOf, type CommandSettings } from '../../command/command-settings.js';
import { checkCluster, type CheckResult } from '../audit/cluster-checks.js';
import { CHECKED_KINDS, objectsOf } from '../audit/cluster/cluster-input.js';
import { explainPod } from '../audit/explain-pod.js';
import { findInjectors } from '../audit/cluster/injector-install.js';
import { asks, INJECT_LABEL, namespacesPassedOver } from '../contract.js';
import { readJsonStream } from '../manifests/json-stream.js';
import { readKubeYamlStream } from '../manifests/kube-yaml.js';
import { podTemplatePath, valueAt, type KubeObject } from '../manifests/pod-templates.js';
import { annotationOf, readInjectionOptions } from '../options.js';
import { readPolicyFile } from './policy-file.js';
import { readClusterForCheck, readClusterForPod } from '../audit/kube/read-cluster.js';
import { CLUSTER_OPTIONS, readFileInput, readFromCluster } from './cluster-source.js';
import { INJECTED_SIDECAR_SETTINGS } from '../injected-sidecar-settings.js';

const USAGE =
  'usage: sfd-sidecar check [--pod NAME [-n NS]] [-o json|yaml] [settings] ' +
  '[--context NAME] [--kubeconfig FILE] [FILE|-]';
/** Where the objects come from when no FILE is given, as the messages name it. */
const CLUSTER = 'the cluster';
const CLUSTER_GET =
  'kubectl get namespaces,pods,deployments,secrets,mutatingwebhookconfigurations,validatingadmissionpolicies,' +
  'validatingadmissionpolicybindings -A -o json';

export async function checkCommand(
  positionals: readonly string[],
  options: Readonly<Record<string, unknown>>,
  settings: CommandSettings,
  io: CliIo,
): Promise<number> {
  const format = outputFormatOf(options);
  if (positionals.length > 1) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  const source = positionals[0] ?? CLUSTER;
  const values = positionals.length === 1 ? await readInput(source, options, io) : await readCluster(options, io);
  if (values === null) return 2;
  if (typeof options.pod === 'string') return explainCommand(values, options, settings, source, format, io);
  if (!values.flatMap(objectsOf).some((o) => CHECKED_KINDS.includes(String(o.kind)))) {
    io.stderr(nothingToRead('check', source, `object of a kind it checks (${CHECKED_KINDS.join(', ')})`, CLUSTER_GET));
    return 2;
  }
  const report = checkCluster(values, io.now());
  if (format !== null) io.stdout(formatObject({ results: report.results }, format));
  else io.stdout(report.results.map(line).join(''));
  const count = (status: string) => report.results.filter((r) => r.status === status).length;
  io.stderr(
    `sfd-sidecar check: ${count('ok')} ok, ${count('warn')} warn, ${count('fail')} fail, ` +
      `${count('not checked')} not checked\n`,
  );
  return count('fail') > 0 ? 1 : 0;
}

/** The documents of FILE or `-`, or null once why they cannot be read is on stderr. */
async function readInput(source: string, options: Readonly<Record<string, unknown>>, io: CliIo) {
  const text = await readFileInput('check', source, options, CLUSTER_OPTIONS, io);
  if (text === null) return null;
  const values = readValues(text);
  if (values === null)
    io.stderr(`sfd-sidecar check: ${source} is neither the JSON kubectl prints with -o json nor YAML manifests\n`);
  return values;
}

/** The cluster's objects check reads (those of one pod's namespace with --pod -n), or null as above. */
function readCluster(options: Readonly<Record<string, unknown>>, io: CliIo) {
  const namespace = namespaceOf(options);
  return readFromCluster('check', options, io, (api) =>
    typeof options.pod === 'string' ? readClusterForPod(api, namespace) : readClusterForCheck(api),
  );
}

function namespaceOf(options: Readonly<Record<string, unknown>>): string | undefined {
  const namespace = typeof options.namespace === 'string' ? options.namespace : undefined;
  if (namespace !== undefined && !isDnsLabel(namespace))
    throw new ConfigError([`--namespace: must be a namespace name (got ${JSON.stringify(namespace)})`]);
  return namespace;
}

function line(result: CheckResult): string {
  const head = `${result.status.padEnd(11)} ${result.check.padEnd(26)} ${result.detail}\n`;
  return result.fix ? `${head}${' '.repeat(39)}fix: ${result.fix}\n` : head;
}

/** The documents of kubectl's JSON (a List, or objects one after another) or of YAML manifests. */
function readValues(text: string): unknown[] | null {
  if (/^\s*[[{]/.test(text)) {
    const stream = readJsonStream(text);
    return stream.ok ? stream.values.map((span) => span.value) : null;
  }
  const documents = [...readKubeYamlStream(text).documents];
  if (documents.some((d) => d.problem !== null)) return null;
  return documents.map((d) => d.value).filter((v) => v !== undefined && v !== null);
}

function explainCommand(
  values: readonly unknown[],
  options: Readonly<Record<string, unknown>>,
  settings: CommandSettings,
  source: string,
  format: OutputFormat | null,
  io: CliIo,
): number {
  const name = options.pod as string;
  const namespace = namespaceOf(options);
  const objects = values.flatMap(objectsOf);
  if (!objects.some((o) => podTemplatePath(o) !== undefined)) {
    io.stderr(nothingToRead('check', source, 'pod or workload', `kubectl get pods,deployments -A -o json`));
    return 2;
  }
  const object = objects.find(
    (o) =>
      podTemplatePath(o) !== undefined &&
      o.metadata?.name === name &&
      (namespace === undefined || (o.metadata.namespace ?? 'default') === namespace),
  );
  if (object === undefined) {
    io.stderr(
      `sfd-sidecar check: no pod or workload named ${name}${namespace ? ` in ${namespace}` : ''} ` +
        `${source === CLUSTER ? 'in the cluster' : 'in the input'}\n`,
    );
    return 2;
  }
  const where = typeof object.metadata?.namespace === 'string' ? object.metadata.namespace : (namespace ?? 'default');
  const reader = readerOf(settings, io);
  const policy = readPolicyFile(reader)?.policy;
  const injectors = findInjectors(
    objects.filter((o) => o.kind === 'Deployment'),
    objects.filter((o) => o.kind === 'Pod'),
  );
  const defaults = injectors[0]?.defaults ?? readInjectionOptions(reader);
  reader.assertValid();
  const template = valueAt(object, podTemplatePath(object)!);
  // Without an injector in the input, the command's settings stand for its defaults: a key store Secret
  // missing there is the option not given, not a fault of the pod.
  if (injectors.length === 0 && defaults.keystoreSecret === null && !namesKeyStoreSecret(object, template)) {
    io.stderr(
      `sfd-sidecar check: ` +
        `--keystore-secret is missing: the input holds no injector whose settings name the key store Secret, ` +
        `and ${String(object.kind)} ${name} names none (annotation ${annotationOf('keystoreSecret')}); give ` +
        `--keystore-secret NAME (${INJECTED_SIDECAR_SETTINGS.keystoreSecret.env}), ` +
        `the chart's keystore.existingSecret, or add ` +
        `the injector's Deployment to the input (kubectl get deployments -A -o json)\n`,
    );
    return 2;
  }
  const asking = objects.some((o) => o.kind === 'Namespace' && o.metadata?.name === where && asks(labelOf(o)));
  const label = `${String(object.kind)} ${name} in ${where}`;
  const explanation = explainPod(template, {
    defaults,
    optIn: asking ? 'namespace-asks' : 'pod-asks',
    inherited: annotationsOf(object, template),
    ...(policy ? { entitlement: { policy, object: label, namespace: where } } : {}),
  });
  if (format !== null) io.stdout(formatObject(explanation, format));
  else {
    const lines = [`${label}: the injector would ${PHRASES[explanation.decision]}`];
    if (explanation.rule) lines.push(`  rule: ${explanation.rule}`);
    if (explanation.reason) lines.push(`  reason: ${explanation.reason}: ${explanation.why ?? ''}`);
    lines.push(...explanation.problems.map((problem) => `  - ${problem}`));
    if (explanation.fix && explanation.decision !== 'injected') lines.push(`  to change: ${explanation.fix}`);
    if (explanation.recorded) lines.push(`  recorded on the pod: ${explanation.recorded}`);
    if (explanation.decision === 'refused')
      lines.push(
        '  A refused pod is never created: its controller says why in its events ' +
          `(kubectl -n ${where} get events --field-selector reason=FailedCreate).`,
      );
    if (injectors.some((i) => i.policyInForce) && !policy)
      lines.push('  note: the injector has an entitlement policy; give it with --policy-file to judge entitlements');
    if (namespacesPassedOver(injectors.map((i) => i.namespace)).includes(where))
      lines.push(`  note: the webhook never sees pods in ${where}`);
    io.stdout(lines.map((l) => `${l}\n`).join(''));
  }
  return explanation.decision === 'injected' || explanation.reason === 'already-injected' ? 0 : 1;
}

const PHRASES = {
  injected: 'add the sidecar',
  'left as it is': 'leave it as it is',
  'left as it is, with a warning': 'leave it without the sidecar, with a warning',
  refused: 'refuse it',
} as const;

const labelOf = (object: KubeObject): unknown =>
  ((object.metadata as { labels?: Record<string, unknown> } | undefined)?.labels ?? {})[INJECT_LABEL];

/** A workload's annotations, which its pod template inherits (a Pod's are its own). */
function annotationsOf(object: KubeObject, template: unknown): Record<string, string> {
  if (template === object) return {};
  const annotations = object.metadata?.annotations;
  if (annotations === null || typeof annotations !== 'object') return {};
  return Object.fromEntries(
    Object.entries(annotations).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** Whether the pod, or the workload whose template it is, names its key store Secret by annotation. */
function namesKeyStoreSecret(object: KubeObject, template: unknown): boolean {
  const own = (template as { metadata?: { annotations?: unknown } } | undefined)?.metadata?.annotations;
  const annotations = { ...annotationsOf(object, template), ...(own !== null && typeof own === 'object' ? own : {}) };
  return typeof (annotations as Record<string, unknown>)[annotationOf('keystoreSecret')!] === 'string';
}
