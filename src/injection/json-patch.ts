// The JSON patch (RFC 6902) from one document to another. Only fast-json-patch's type is imported, so the
// runtime never loads the library and it stays a devDependency; tests apply the patches with it. The
// difference is computed here, not by the library, because the library compares lists index by index: a
// container put first would replace every container after it, and a YAML manifest edited that way moves
// each comment to the wrong entry. Lists are matched instead by their entries' names (containers,
// volumes, env), or by the entries themselves, so an entry added or taken away is one `add` or `remove`
// and every other entry keeps its place.
import type { Operation } from 'fast-json-patch';
import { isRecord } from '../text/is-record.js';
import { jsonText } from '../text/json-text.js';

export type PatchOperation = Operation;

/** One step of the walk: a difference still to find under a path, or an operation found. */
type Step =
  | { readonly walk: true; readonly before: unknown; readonly after: unknown; readonly path: string }
  | { readonly walk: false; readonly operation: PatchOperation };

const walk = (before: unknown, after: unknown, path: string): Step => ({ walk: true, before, after, path });
const write = (operation: PatchOperation): Step => ({ walk: false, operation });

/**
 * The operations that turn `before` into `after`. Walked without recursion, each difference's steps in
 * the order they are written: a pod may nest a field as deep as its client likes.
 */
export function patchBetween(before: unknown, after: unknown): PatchOperation[] {
  const operations: PatchOperation[] = [];
  const pending: Step[] = [walk(before, after, '')];
  while (pending.length > 0) {
    const step = pending.pop()!;
    if (!step.walk) {
      operations.push(step.operation);
      continue;
    }
    const steps = stepsBetween(step.before, step.after, step.path);
    for (let index = steps.length - 1; index >= 0; index -= 1) pending.push(steps[index]!);
  }
  return operations;
}

/** A patch's text, as the API server reads it; written without recursion, as the walk is. */
export const patchText = (operations: readonly PatchOperation[]): string => jsonText(operations);

/** A JSON pointer's token for a key. */
export const pointerToken = (key: string | number): string => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

function stepsBetween(before: unknown, after: unknown, path: string): Step[] {
  if (before === after) return [];
  if (Array.isArray(before) && Array.isArray(after)) return listSteps(before, after, path);
  if (isRecord(before) && isRecord(after)) {
    const steps: Step[] = [];
    for (const key of Object.keys(before))
      if (!Object.hasOwn(after, key)) steps.push(write({ op: 'remove', path: `${path}/${pointerToken(key)}` }));
    for (const [key, value] of Object.entries(after)) {
      const at = `${path}/${pointerToken(key)}`;
      steps.push(Object.hasOwn(before, key) ? walk(before[key], value, at) : write({ op: 'add', path: at, value }));
    }
    return steps;
  }
  return [write({ op: 'replace', path, value: after })];
}

function listSteps(before: unknown[], after: unknown[], path: string): Step[] {
  const beforeKeys = entryKeys(before);
  const afterKeys = entryKeys(after);
  if (!beforeKeys || !afterKeys || !sameOrder(beforeKeys, afterKeys)) {
    if (before.length !== after.length) return [write({ op: 'replace', path, value: after })];
    return before.map((value, index) => walk(value, after[index], `${path}/${index}`));
  }
  const kept = new Set(afterKeys);
  const had = new Set(beforeKeys);
  const steps: Step[] = [];
  let i = 0;
  let j = 0;
  let at = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && !kept.has(beforeKeys[i]!)) {
      steps.push(write({ op: 'remove', path: `${path}/${at}` }));
      i += 1;
    } else if (j < after.length && !had.has(afterKeys[j]!)) {
      steps.push(write({ op: 'add', path: `${path}/${at}`, value: after[j] }));
      j += 1;
      at += 1;
    } else {
      steps.push(walk(before[i], after[j], `${path}/${at}`));
      i += 1;
      j += 1;
      at += 1;
    }
  }
  return steps;
}

/** Each entry's identity (its `name`, or the entry itself), or null when two entries share one. */
function entryKeys(list: readonly unknown[]): string[] | null {
  const keys = list.map((entry) =>
    isRecord(entry) && typeof entry.name === 'string' ? `name:${entry.name}` : `value:${jsonText(entry)}`,
  );
  return new Set(keys).size === keys.length ? keys : null;
}

/** Whether the keys both lists have come in the same order in each. */
function sameOrder(before: readonly string[], after: readonly string[]): boolean {
  const inAfter = new Set(after);
  const inBefore = new Set(before);
  const common = before.filter((key) => inAfter.has(key));
  const commonAfter = after.filter((key) => inBefore.has(key));
  return common.every((key, index) => key === commonAfter[index]);
}

/** Whether two JSON values are equal, member by member; walked without recursion. */
export function sameValue(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop()!;
    if (x === y) continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let index = 0; index < x.length; index += 1) pending.push([x[index], y[index]]);
    } else if (isRecord(x) && isRecord(y)) {
      const keys = Object.keys(x);
      if (keys.length !== Object.keys(y).length) return false;
      for (const key of keys) {
        if (!Object.hasOwn(y, key)) return false;
        pending.push([x[key], y[key]]);
      }
    } else return false;
  }
  return true;
}
