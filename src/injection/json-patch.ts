// The JSON patch (RFC 6902) from one document to another. Only fast-json-patch's type is imported, so the
// runtime never loads the library and it stays a devDependency; tests apply the patches with it. The
// difference is computed here, not by the library, because the library compares lists index by index: a
// container put first would replace every container after it, and a YAML manifest edited that way moves
// each comment to the wrong entry. Lists are matched instead by their entries' names (containers,
// volumes, env), or by the entries themselves, so an entry added or taken away is one `add` or `remove`
// and every other entry keeps its place.
import type { Operation } from 'fast-json-patch';
import { isRecord } from '../text/is-record.js';

export type PatchOperation = Operation;

export function patchBetween(before: unknown, after: unknown): PatchOperation[] {
  const operations: PatchOperation[] = [];
  diff(before, after, '', operations);
  return operations;
}

/** A JSON pointer's token for a key. */
export const pointerToken = (key: string | number): string => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

function diff(before: unknown, after: unknown, path: string, out: PatchOperation[]): void {
  if (sameValue(before, after)) return;
  if (Array.isArray(before) && Array.isArray(after)) return diffLists(before, after, path, out);
  if (isRecord(before) && isRecord(after)) {
    for (const key of Object.keys(before))
      if (!Object.hasOwn(after, key)) out.push({ op: 'remove', path: `${path}/${pointerToken(key)}` });
    for (const [key, value] of Object.entries(after)) {
      const at = `${path}/${pointerToken(key)}`;
      if (!Object.hasOwn(before, key)) out.push({ op: 'add', path: at, value });
      else diff(before[key], value, at, out);
    }
    return;
  }
  out.push({ op: 'replace', path, value: after });
}

function diffLists(before: unknown[], after: unknown[], path: string, out: PatchOperation[]): void {
  const beforeKeys = entryKeys(before);
  const afterKeys = entryKeys(after);
  if (!beforeKeys || !afterKeys || !sameOrder(beforeKeys, afterKeys)) {
    if (before.length !== after.length) return void out.push({ op: 'replace', path, value: after });
    before.forEach((value, index) => diff(value, after[index], `${path}/${index}`, out));
    return;
  }
  const kept = new Set(afterKeys);
  const had = new Set(beforeKeys);
  let i = 0;
  let j = 0;
  let at = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && !kept.has(beforeKeys[i]!)) {
      out.push({ op: 'remove', path: `${path}/${at}` });
      i += 1;
    } else if (j < after.length && !had.has(afterKeys[j]!)) {
      out.push({ op: 'add', path: `${path}/${at}`, value: after[j] });
      j += 1;
      at += 1;
    } else {
      diff(before[i], after[j], `${path}/${at}`, out);
      i += 1;
      j += 1;
      at += 1;
    }
  }
}

/** Each entry's identity (its `name`, or the entry itself), or null when two entries share one. */
function entryKeys(list: readonly unknown[]): string[] | null {
  const keys = list.map((entry) =>
    isRecord(entry) && typeof entry.name === 'string' ? `name:${entry.name}` : `value:${JSON.stringify(entry)}`,
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

/** Whether two JSON values are equal, member by member. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((value, i) => sameValue(value, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]))
    );
  }
  return false;
}
