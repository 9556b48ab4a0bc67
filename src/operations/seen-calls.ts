// The calls a sidecar saw, read back from what it wrote: its request log lines (as `kubectl logs`
// prints them, or wrapped by a container runtime's JSON log format, with the namespace a collector
// adds), or its `sfd_requests_total` series (the /metrics text, or a
// Prometheus query's JSON answer). A line that is neither is skipped and counted.
import type { SeenCall } from './suggest-operations.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export interface ReadCalls {
  readonly calls: SeenCall[];
  /** Lines that were not a request's line nor a series. */
  readonly skipped: number;
}

/** Request log lines, one JSON object per line. */
export function callsFromLogLines(lines: string): ReadCalls {
  const calls: SeenCall[] = [];
  let skipped = 0;
  for (const line of lines.split('\n')) {
    if (line.trim() === '') continue;
    const record = parseLine(line);
    const call = record && callOf(record);
    if (call) calls.push(call);
    else skipped += 1;
  }
  return { calls, skipped };
}

function parseLine(line: string): Json | null {
  try {
    const value = JSON.parse(line) as unknown;
    if (!isObject(value)) return null;
    // A collector wraps the sidecar's own line: in `log` (Fluent Bit, a runtime's JSON log), in `message`
    // (Vector, Filebeat).
    const wrapped = value.event === undefined ? (value.log ?? value.message) : undefined;
    if (typeof wrapped === 'string') {
      const inner = parseLine(wrapped.trim());
      return inner && { ...value, ...inner };
    }
    return value;
  } catch {
    return null;
  }
}

function callOf(record: Json): SeenCall | null {
  if (record.event !== 'request') return null;
  const profile = text(record.profile);
  const method = text(record.method);
  const status = typeof record.status === 'number' ? record.status : NaN;
  if (!profile || !method || !Number.isInteger(status)) return null;
  const kubernetes = isObject(record.kubernetes) ? record.kubernetes : {};
  // Fluent Bit's Kubernetes filter writes namespace_name, Vector's kubernetes_logs source pod_namespace,
  // Filebeat's kubernetes processor namespace; none carries the service account.
  const namespace =
    text(record.namespace) ??
    text(kubernetes.namespace_name) ??
    text(kubernetes.pod_namespace) ??
    text(kubernetes.namespace);
  const serviceAccount = text(record.serviceAccount);
  return {
    profile,
    method,
    status,
    count: 1,
    ...(text(record.path) ? { path: text(record.path)! } : {}),
    ...(text(record.operation) ? { operation: text(record.operation)! } : {}),
    ...(namespace ? { namespace } : {}),
    ...(serviceAccount ? { serviceAccount } : {}),
  };
}

const SERIES = /^sfd_requests_total\{([^}]*)\}\s+([0-9.eE+-]+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** `sfd_requests_total` series: exposition text, or the JSON of a Prometheus query. */
export function callsFromSeries(input: string): ReadCalls {
  if (/^\s*\{/.test(input)) return callsFromQueryAnswer(input);
  const calls: SeenCall[] = [];
  let skipped = 0;
  for (const line of input.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const match = SERIES.exec(line);
    if (!match) {
      skipped += 1;
      continue;
    }
    const labels = Object.fromEntries([...match[1]!.matchAll(LABEL)].map((m) => [m[1]!, m[2]!]));
    const call = seriesCall(labels, Number(match[2]));
    if (call) calls.push(call);
    else skipped += 1;
  }
  return { calls, skipped };
}

function callsFromQueryAnswer(input: string): ReadCalls {
  let answer: unknown;
  try {
    answer = JSON.parse(input) as unknown;
  } catch {
    return { calls: [], skipped: 1 };
  }
  const result =
    isObject(answer) && isObject(answer.data) && Array.isArray(answer.data.result) ? answer.data.result : [];
  const calls: SeenCall[] = [];
  let skipped = 0;
  for (const series of result) {
    const metric = isObject(series) && isObject(series.metric) ? series.metric : {};
    const value = isObject(series) && Array.isArray(series.value) ? Number(series.value[1]) : NaN;
    const call = seriesCall(metric, value);
    if (call) calls.push(call);
    else skipped += 1;
  }
  return { calls, skipped };
}

function seriesCall(labels: Readonly<Record<string, unknown>>, value: number): SeenCall | null {
  const profile = text(labels.profile);
  const operation = text(labels.operation);
  const status = Number(labels.status);
  if (!profile || !operation || !Number.isInteger(status) || !(value > 0)) return null;
  const namespace = text(labels.namespace);
  return {
    profile,
    method: text(labels.method) ?? '',
    operation,
    status,
    count: Math.round(value),
    ...(namespace ? { namespace } : {}),
  };
}
