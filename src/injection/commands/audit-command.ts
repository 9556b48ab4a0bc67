// `sfd-sidecar audit [--version V | --image REF] [--json] FILE|-`: reads what `kubectl get namespaces,pods -A -o json`
// (or any workloads) prints and reports what to act on, one line each; exit 0 when there is nothing, 1
// when there is, 2 when the input cannot be read or holds no namespace, pod or workload.
import { auditObjects } from '../audit/audit-objects.js';
import type { WantedSidecar } from '../audit/cluster/running-sidecar.js';
import { podTemplatePath, type KubeObject } from '../manifests/pod-templates.js';
import { readJsonStream } from '../manifests/json-stream.js';
import { nothingToRead } from '../../command/nothing-to-read.js';
import { readCommandInput } from '../../command/read-input.js';
import { formatObject, outputFormatOf } from '../../command/output-format.js';
import type { CliIo } from '../../command/cli-io.js';

const USAGE =
  'usage: sfd-sidecar audit [--version V | --image REF] [-o json|yaml] FILE|-   ' +
  '(kubectl get namespaces,pods -A -o json)';
const MAX_INPUT_BYTES = 256 * 1024 * 1024;

export async function auditCommand(
  positionals: readonly string[],
  options: Readonly<Record<string, unknown>>,
  io: CliIo,
): Promise<number> {
  const format = outputFormatOf(options);
  if (positionals.length !== 1) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  const source = positionals[0]!;
  const text = await readCommandInput(io, 'audit', source, MAX_INPUT_BYTES);
  if (text === null) return 2;
  const stream = readJsonStream(text);
  if (!stream.ok) {
    io.stderr(`sfd-sidecar audit: ${source} is not the JSON kubectl prints with -o json\n`);
    return 2;
  }
  const objects = stream.values.flatMap((span) => itemsOf(span.value));
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
