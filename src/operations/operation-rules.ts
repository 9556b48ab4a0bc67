// Which API calls a profile may sign: named operations (`getCustomer`), and rules for the rest of the
// API family, `{methods, paths}`. A path pattern matches the path exactly as it is forwarded and signed,
// less the upstream's prefix, segment by segment: a literal segment byte for byte (an encoded `%41` is
// not `A`), and `*` one whole segment of unreserved characters only, so that `%`, `;` or `\` never match
// a wildcard and a pattern cannot be stretched over a segment it does not name. A GET rule allows HEAD,
// which reads the same; nothing else is implied.
import { NAMED_OPERATIONS, operationOf, type NamedOperation } from './named-operations.js';

export interface OperationRule {
  readonly methods: readonly string[];
  readonly paths: readonly string[];
}

export type OperationItem = NamedOperation | OperationRule;

/** Whether a request may be signed: one check of method and path. */
export type OperationCheck = (method: string, path: string) => boolean;

const NAMED = new Set<string>(NAMED_OPERATIONS);
/** An HTTP method token as the API uses them, upper case. */
export const METHOD = /^[A-Z]{1,16}$/;
/** One unreserved segment, what `*` stands for. */
const UNRESERVED_SEGMENT = /^[A-Za-z0-9._~-]+$/;
/** A path pattern: a `/` then segments, none holding a query, a fragment or white space. */
export const PATH_PATTERN = /^\/[^?#\s]*$/;

export const isNamedOperation = (value: unknown): value is NamedOperation =>
  typeof value === 'string' && NAMED.has(value);

/** What each item may be, in words, for messages. */
export const OPERATION_ITEM_ALLOWED =
  `one of ${NAMED_OPERATIONS.join(', ')}, ` + 'or {methods: [GET, ...], paths: [/path/with/*/segments]}';

/** The item read from a parsed value, or why it is not one (never quoting the value). */
export function readOperationItem(value: unknown): { ok: true; item: OperationItem } | { ok: false; problem: string } {
  if (isNamedOperation(value)) return { ok: true, item: value };
  if (typeof value === 'string')
    return { ok: false, problem: `an operation name must be one of ${NAMED_OPERATIONS.join(', ')}` };
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, problem: `must be ${OPERATION_ITEM_ALLOWED}` };
  const rule = value as Record<string, unknown>;
  const extra = Object.keys(rule).filter((field) => field !== 'methods' && field !== 'paths');
  if (extra.length > 0) return { ok: false, problem: 'a rule has only methods and paths' };
  const { methods, paths } = rule;
  if (!Array.isArray(methods) || methods.length === 0 || !methods.every((m) => typeof m === 'string' && METHOD.test(m)))
    return { ok: false, problem: 'methods must be a list of one HTTP method or more, in upper case (GET, POST...)' };
  if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string' && PATH_PATTERN.test(p)))
    return { ok: false, problem: 'paths must be a list of one path or more, each starting with /, without ? or #' };
  return { ok: true, item: { methods: methods as string[], paths: paths as string[] } };
}

/** An item as people write it in an annotation and read it in messages: `getCustomer`, `GET|HEAD /a/*`. */
export function describeOperationItem(item: OperationItem): string {
  return typeof item === 'string' ? item : item.paths.map((path) => `${item.methods.join('|')} ${path}`).join(', ');
}

/** Whether two items are the same grant. */
export function sameOperationItem(a: OperationItem, b: OperationItem): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  const same = (x: readonly string[], y: readonly string[]) =>
    x.length === y.length && [...x].sort().every((value, i) => value === [...y].sort()[i]);
  return same(a.methods, b.methods) && same(a.paths, b.paths);
}

/** The check of a list of items: a request is allowed when any item allows it. */
export function operationCheck(items: readonly OperationItem[]): OperationCheck {
  const names = new Set(items.filter((item): item is NamedOperation => typeof item === 'string'));
  const rules = items
    .filter((item): item is OperationRule => typeof item !== 'string')
    .map((rule) => ({ methods: new Set(rule.methods), paths: rule.paths.map((p) => p.split('/')) }));
  return (method, path) => {
    if (names.size > 0) {
      const named = operationOf(method, path);
      if (named !== 'other' && names.has(named)) return true;
    }
    if (rules.length === 0) return false;
    const segments = path.split('/');
    return rules.some(
      (rule) =>
        (rule.methods.has(method) || (method === 'HEAD' && rule.methods.has('GET'))) &&
        rule.paths.some((pattern) => matches(pattern, segments)),
    );
  };
}

function matches(pattern: readonly string[], segments: readonly string[]): boolean {
  if (pattern.length !== segments.length) return false;
  for (let i = 0; i < pattern.length; i += 1) {
    const want = pattern[i]!;
    const have = segments[i]!;
    if (want === '*' ? !UNRESERVED_SEGMENT.test(have) : want !== have) return false;
  }
  return true;
}

/**
 * Items from an annotation's text: named operations and `METHODS /path` rules, separated by commas,
 * e.g. `getCustomer, GET|HEAD /v1.2/reports/*`.
 */
export function parseOperationItems(
  text: string,
): { ok: true; items: OperationItem[] } | { ok: false; allowed: string } {
  const allowed = `operations separated by commas: ${NAMED_OPERATIONS.join(', ')}, or METHOD|METHOD /path/*`;
  const items: OperationItem[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    if (isNamedOperation(part)) {
      items.push(part);
      continue;
    }
    const space = part.indexOf(' ');
    const read = readOperationItem(
      space === -1 ? part : { methods: part.slice(0, space).split('|'), paths: [part.slice(space + 1).trim()] },
    );
    if (!read.ok) return { ok: false, allowed };
    items.push(read.item);
  }
  return { ok: true, items };
}
