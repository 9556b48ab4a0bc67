// The smallest operations that would have allowed every call seen, from what the sidecars recorded:
// per profile (and per namespace when the records carry it), named operations
// first, then rules for the rest, each path's all-digit segments written `*` (ids, which vary call by
// call). Only calls answered below 400 count: a call the gateway refused is no use to grant.
import { operationOf, type NamedOperation } from './named-operations.js';
import type { OperationItem } from './operation-rules.js';

/** One call as a request log line or a metric series tells it (`count` calls at once for a series). */
export interface SeenCall {
  readonly profile: string;
  readonly method: string;
  /** Absent when the record names only the operation (a metric series). */
  readonly path?: string;
  readonly operation?: string;
  readonly status: number;
  readonly count: number;
  /** The namespace of the sidecar that signed it, as a log collector's metadata or a series' labels say. */
  readonly namespace?: string;
}

export interface SuggestedItem {
  readonly item: OperationItem;
  readonly calls: number;
}

export interface Suggestion {
  readonly profile: string;
  readonly namespace?: string;
  readonly items: readonly SuggestedItem[];
  /** Calls of the `other` operation, which only a path can grant and the records did not carry one. */
  readonly unnamed: number;
}

const DIGITS = /^[0-9]+$/;

/** A path with its all-digit segments written as `*`. */
export const pathPattern = (path: string): string =>
  path
    .split('/')
    .map((segment) => (DIGITS.test(segment) ? '*' : segment))
    .join('/');

export function suggestOperations(calls: Iterable<SeenCall>): Suggestion[] {
  const groups = new Map<string, { key: Omit<Suggestion, 'items' | 'unnamed'>; calls: SeenCall[] }>();
  for (const call of calls) {
    if (call.status <= 0 || call.status >= 400) continue;
    const key = { profile: call.profile, namespace: call.namespace };
    const id = JSON.stringify([key.namespace ?? null, key.profile]);
    const group = groups.get(id) ?? { key: withoutUndefined(key), calls: [] };
    group.calls.push(call);
    groups.set(id, group);
  }
  return [...groups.values()]
    .map(({ key, calls }) => ({ ...key, ...itemsOf(calls) }))
    .sort((a, b) => (a.namespace ?? '').localeCompare(b.namespace ?? '') || a.profile.localeCompare(b.profile));
}

function itemsOf(calls: readonly SeenCall[]): { items: SuggestedItem[]; unnamed: number } {
  const named = new Map<NamedOperation, number>();
  const rules = new Map<string, { methods: Set<string>; calls: number }>();
  let unnamed = 0;
  for (const call of calls) {
    const operation = call.path === undefined ? call.operation : operationOf(call.method, call.path);
    if (operation !== undefined && operation !== 'other') {
      named.set(operation as NamedOperation, (named.get(operation as NamedOperation) ?? 0) + call.count);
      continue;
    }
    if (call.path === undefined) {
      unnamed += call.count;
      continue;
    }
    const pattern = pathPattern(call.path);
    const rule = rules.get(pattern) ?? { methods: new Set<string>(), calls: 0 };
    rule.methods.add(call.method);
    rule.calls += call.count;
    rules.set(pattern, rule);
  }
  const items: SuggestedItem[] = [
    ...[...named].sort((a, b) => b[1] - a[1]).map(([item, count]) => ({ item, calls: count })),
    ...[...rules]
      .sort((a, b) => b[1].calls - a[1].calls || a[0].localeCompare(b[0]))
      .map(([path, rule]) => ({ item: { methods: methodsOf(rule.methods), paths: [path] }, calls: rule.calls })),
  ];
  return { items, unnamed };
}

/** The methods to grant, sorted; HEAD is left out where GET is granted, which allows it. */
function methodsOf(seen: ReadonlySet<string>): string[] {
  return [...seen].filter((method) => !(method === 'HEAD' && seen.has('GET'))).sort();
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
