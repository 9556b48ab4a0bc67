// The calls a sidecar saw, read back from what it wrote: its request log lines (as `kubectl logs -c
// sfd-sidecar` prints them, a container runtime's JSON log file of the sidecar's container, or as a log
// collector gathered them: log-attribution.ts), or its `sfd_requests_total` series (the /metrics text, or a
// Prometheus query's JSON answer). A line that is neither is skipped and counted; a request line that is
// not the sidecar's own, or that grants nothing the sidecar signed, is left out and counted by why.
import { attributeLine, type AttributedLine, type Writer } from './log-attribution.js';
import type { SeenCall } from './suggest-operations.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Why a request line is left out, and what the reader is told of the lines left out for it. */
export const LEFT_OUT_LINES = {
  'other-container': 'printed by another container of the pod, as the log collector tells (only the sidecar counts)',
  unattributed: 'wrapped by a log collector that names no container for them',
  merged:
    "merged by the log collector into its own record, where their fields cannot be told from the collector's " +
    "(keep the line in its field: Fluent Bit's Keep_Log on)",
  unsigned: 'answered below 400 without an access key id (no call the sidecar signed)',
} as const;
export type LeftOutReason = keyof typeof LEFT_OUT_LINES;

export interface ReadCalls {
  readonly calls: SeenCall[];
  /** Lines that were not a request's line nor a series. */
  readonly skipped: number;
  /** Request lines left out, by why. */
  readonly leftOut: Readonly<Record<LeftOutReason, number>>;
  /** Request lines that name a namespace or service account of their own, which is never read. */
  readonly ownMetadata: number;
}

const NOTHING_LEFT_OUT: Readonly<Record<LeftOutReason, number>> = Object.freeze({
  'other-container': 0,
  unattributed: 0,
  merged: 0,
  unsigned: 0,
});

/**
 * Request log lines, one JSON object per line, of the container named `sidecar`. Only the collector's
 * metadata says which container printed a line and in which namespace: a namespace or service account in
 * the line's own fields is never read, since any container can print any line.
 */
export function callsFromLogLines(lines: string, sidecar: string): ReadCalls {
  const calls: SeenCall[] = [];
  const leftOut = { ...NOTHING_LEFT_OUT };
  let skipped = 0;
  let ownMetadata = 0;
  for (const line of lines.split('\n')) {
    if (line.trim() === '') continue;
    const attributed = attributeLine(line);
    const record = attributed.kind === 'unreadable' ? null : attributed.record;
    if (record?.event !== 'request') {
      skipped += 1;
      continue;
    }
    const read =
      attributed.kind === 'line' ? callOf(record, attributed.writer, sidecar) : whyLeftOut(attributed, sidecar);
    if (read === null) skipped += 1;
    else if (typeof read === 'string') leftOut[read] += 1;
    else {
      calls.push(read);
      if (record.namespace !== undefined || record.serviceAccount !== undefined) ownMetadata += 1;
    }
  }
  return { calls, skipped, leftOut, ownMetadata };
}

/** Why a request line that a collector did not hand over as a container's own line is left out. */
function whyLeftOut(attributed: AttributedLine, sidecar: string): LeftOutReason {
  if (attributed.kind !== 'merged') return 'unattributed';
  const { container } = attributed.writer;
  return container !== undefined && container !== sidecar ? 'other-container' : 'merged';
}

function callOf(record: Json, writer: Writer, sidecar: string): SeenCall | LeftOutReason | null {
  if (writer.container !== undefined && writer.container !== sidecar) return 'other-container';
  const profile = text(record.profile);
  const method = text(record.method);
  const status = typeof record.status === 'number' ? record.status : NaN;
  if (!profile || !method || !Number.isInteger(status)) return null;
  if (status > 0 && status < 400 && text(record.accessKeyId) === undefined) return 'unsigned';
  return {
    profile,
    method,
    status,
    count: 1,
    ...(text(record.path) ? { path: text(record.path)! } : {}),
    ...(text(record.operation) ? { operation: text(record.operation)! } : {}),
    ...(writer.namespace ? { namespace: writer.namespace } : {}),
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
  return { calls, skipped, leftOut: NOTHING_LEFT_OUT, ownMetadata: 0 };
}

function callsFromQueryAnswer(input: string): ReadCalls {
  let answer: unknown;
  try {
    answer = JSON.parse(input) as unknown;
  } catch {
    return { calls: [], skipped: 1, leftOut: NOTHING_LEFT_OUT, ownMetadata: 0 };
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
  return { calls, skipped, leftOut: NOTHING_LEFT_OUT, ownMetadata: 0 };
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
