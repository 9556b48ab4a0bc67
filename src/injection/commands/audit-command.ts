// `sfd-sidecar audit [--version V | --image REF] [--json] [FILE|-]`: reads what `kubectl get namespaces,pods
// -A -o json` (or any workloads) prints, or the cluster itself when no FILE is given (its namespaces, pods,
// Deployments, StatefulSets and DaemonSets, of one namespace with -n), and reports what to act on, one
// line each; exit 0 when there is nothing, 1 when there is, 2 when the input or the cluster cannot be read
// or holds no namespace, pod or workload.
import { auditObjects } from '../audit/audit-objects.js';
import type { WantedSidecar } from '../audit/cluster/running-sidecar.js';
import { podTemplatePath, type KubeObject } from '../manifests/pod-templates.js';
import { readJsonStream } from '../manifests/json-stream.js';
import { nothingToRead } from '../../command/nothing-to-read.js';
import { formatObject } from '../../command/format-object.js';
import { outputFormatOf } from '../../command/output-format.js';
import type { CliIo } from '../../command/cli-io.js';
import { isDnsLabel } from '../../config/parsers.js';
import { ConfigError } from '../../config/config-error.js';
import { readClusterForAudit } from '../audit/kube/read-cluster.js';
import { CLUSTER_OPTIONS, readFileInput, readFromCluster } from './cluster-source.js';

const USAGE =
  'usage: sfd-sidecar audit [--version V | --image REF] [-o json|yaml] ' +
  '[-n NS] [--context NAME] [--kubeconfig FILE] [FILE|-]   (kubectl get namespaces,pods -A -o json)';

export async function auditCommand(
  positionals: readonly string[],
  options: Readonly<Record<string, unknown>>,
  io: CliIo,
): Promise<number> {
  const format = outputFormatOf(options);
  if (positionals.length > 1) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  const source = positionals[0] ?? 'the cluster';
  const values = positionals.length === 1 ? await readInput(source, options, io) : await readCluster(options, io);
  if (values === null) return 2;
  const objects = values.flatMap(itemsOf);
  if (!objects.some((o) => o.kind === 'Namespace' || podTemplatePath(o) !== undefined)) {
    const expected = 'Namespace, Pod or workload (Deployment, StatefulSet, DaemonSet, Job, CronJob...)';
    io.stderr(nothingToRead('audit', source, expected, 'kubectl get namespaces,pods -A -o json'));
    return 2;
  }
  const findings = auditObjects(objects, wantedOf(options));
  if (format !== null) io.stdout(formatObject({ findings }, format));
  else {
    io.stdout(findings.map((f) => `${f.kind}: ${f.object}: ${f.detail}\n`).join(''));
    const pods = objects.filter((o) => o.kind === 'Pod').length;
    io.stderr(`sfd-sidecar audit: ${objects.length} objects read (${pods} pods), ${findings.length} to act on\n`);
  }
  return findings.length > 0 ? 1 : 0;
}

/** The JSON documents of FILE or `-`, or null once why they cannot be read is on stderr. */
async function readInput(
  source: string,
  options: Readonly<Record<string, unknown>>,
  io: CliIo,
): Promise<readonly unknown[] | null> {
  const text = await readFileInput('audit', source, options, [...CLUSTER_OPTIONS, 'namespace'], io);
  if (text === null) return null;
  const stream = readJsonStream(text);
  if (!stream.ok) {
    io.stderr(`sfd-sidecar audit: ${source} is not the JSON kubectl prints with -o json\n`);
    return null;
  }
  return stream.values.map((span) => span.value);
}

/** The namespaces, pods and workloads of the cluster (or of one namespace), or null as above. */
function readCluster(options: Readonly<Record<string, unknown>>, io: CliIo): Promise<readonly unknown[] | null> {
  const namespace = typeof options.namespace === 'string' ? options.namespace : undefined;
  if (namespace !== undefined && !isDnsLabel(namespace))
    throw new ConfigError([`--namespace: must be a namespace name (got ${JSON.stringify(namespace)})`]);
  return readFromCluster('audit', options, io, (api) => readClusterForAudit(api, namespace));
}

function itemsOf(value: unknown): KubeObject[] {
  if (value === null || typeof value !== 'object') return [];
  const object = value as KubeObject & { items?: unknown };
  if (typeof object.kind === 'string' && object.kind.endsWith('List') && Array.isArray(object.items))
    return object.items.flatMap(itemsOf);
  return [object];
}

/** What the sidecars are compared against: `--version` (a tag) or `--image` (by tag or digest). */
function wantedOf(options: Readonly<Record<string, unknown>>): WantedSidecar | null {
  if (typeof options.image === 'string') return { image: options.image };
  if (typeof options.version === 'string') return { version: options.version };
  return null;
}
