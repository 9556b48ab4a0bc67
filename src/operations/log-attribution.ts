// Whose line a log line is, as the collector that gathered it says. A log collector on the node reads every
// container's output and wraps each line in a record of its own, with the container, pod and namespace it
// came from in fields the application cannot write. Only those fields say who wrote a line: the line's own
// text is whatever the container printed, and any container of the pod can print a line that looks like
// the sidecar's. A line with no collector around it is taken as the sidecar's own, as
// `kubectl logs -c sfd-sidecar` prints it.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Where a collector keeps the line and what it knows of its writer, as paths in its record. */
interface CollectorShape {
  /** The field holding the line as the container printed it. */
  readonly line: string;
  readonly container: readonly string[];
  readonly namespace: readonly string[];
}

/**
 * The records of the collectors read here, each told apart by the field that names the namespace:
 * Fluent Bit's tail input with its Kubernetes filter, Vector's kubernetes_logs source, Filebeat's (and
 * Elastic Agent's) container input with add_kubernetes_metadata.
 */
const COLLECTORS: readonly CollectorShape[] = [
  {
    line: 'log',
    container: ['kubernetes', 'container_name'],
    namespace: ['kubernetes', 'namespace_name'],
  },
  {
    line: 'message',
    container: ['kubernetes', 'container_name'],
    namespace: ['kubernetes', 'pod_namespace'],
  },
  {
    line: 'message',
    container: ['kubernetes', 'container', 'name'],
    namespace: ['kubernetes', 'namespace'],
  },
];

/** A container runtime's own JSON log file holds one container's lines, under these fields only. */
const RUNTIME_FIELDS = new Set(['log', 'stream', 'time']);

/** What the collector says of the writer; every field absent for a line read as it was printed. */
export interface Writer {
  readonly container?: string;
  readonly namespace?: string;
}

export type AttributedLine =
  /** The line as its container printed it, and who printed it. */
  | { readonly kind: 'line'; readonly record: Json; readonly writer: Writer }
  /** A collector's record that names no container, or holds no line the container printed. */
  | { readonly kind: 'unattributed'; readonly record: Json | null }
  /** A collector's record with the line's fields merged into it, and no longer the line itself. */
  | { readonly kind: 'merged'; readonly record: Json; readonly writer: Writer }
  | { readonly kind: 'unreadable' };

/** One line of input: the container's own line and its writer, as far as a collector tells them. */
export function attributeLine(line: string): AttributedLine {
  const value = parseObject(line.trim());
  if (value === null) return { kind: 'unreadable' };
  if (!isObject(value.kubernetes)) {
    if (typeof value.event === 'string') return { kind: 'line', record: value, writer: {} };
    const runtimeLog = Object.keys(value).every((key) => RUNTIME_FIELDS.has(key)) ? text(value.log) : undefined;
    if (runtimeLog !== undefined) {
      const record = parseObject(runtimeLog.trim());
      return record ? { kind: 'line', record, writer: {} } : { kind: 'unreadable' };
    }
    // Some other wrapper, which says nothing of who wrote the line.
    const wrapped = parseObject((text(value.log) ?? text(value.message) ?? '').trim());
    return wrapped ? { kind: 'unattributed', record: wrapped } : { kind: 'unreadable' };
  }
  const shape = COLLECTORS.find((collector) => text(valueAt(value, collector.namespace)) !== undefined);
  const printed = shape ? text(value[shape.line]) : (text(value.log) ?? text(value.message));
  // The line is read only from the field the collector copied it into: fields a collector merged into
  // its own record beside its metadata cannot be told from it.
  const record = printed === undefined ? null : parseObject(printed.trim());
  const container = shape && text(valueAt(value, shape.container));
  const writer = { container, namespace: shape && text(valueAt(value, shape.namespace)) };
  if (printed === undefined && typeof value.event === 'string') return { kind: 'merged', record: value, writer };
  if (!shape || container === undefined || record === null) return { kind: 'unattributed', record };
  return { kind: 'line', record, writer };
}

function parseObject(line: string): Json | null {
  if (!line.startsWith('{')) return null;
  try {
    const value = JSON.parse(line) as unknown;
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function valueAt(value: Json, path: readonly string[]): unknown {
  let at: unknown = value;
  for (const key of path) at = isObject(at) ? at[key] : undefined;
  return at;
}
