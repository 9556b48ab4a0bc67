// A JSON value's text, as JSON.stringify writes it, for any depth: JSON.stringify recurses, and a value
// a client nested a few thousand levels deep overflows its stack. A value that nests no deeper than a few
// hundred levels is written by JSON.stringify, a deeper one walked without recursion. For the values
// JSON.parse and the YAML reader make (objects, lists, strings, numbers, booleans, null, none with a
// toJSON); as JSON.stringify does, the walk leaves out an object's undefined members and writes null for
// an undefined entry of a list and for a number that is not finite.

interface Open {
  readonly value: object;
  readonly keys: readonly string[] | null;
  next: number;
  written: number;
}

/** A depth JSON.stringify reaches from any stack this program runs on: it overflows only far beyond it. */
const NATIVE_DEPTH = 256;

export function jsonText(value: unknown): string {
  // JSON.stringify is several times faster, and a value that nests no deeper than this is safe with it.
  return nestsDeeperThan(value, NATIVE_DEPTH) ? walkedText(value) : (JSON.stringify(value) ?? 'null');
}

/** Whether objects and lists nest in the value deeper than `levels`, found without recursion. */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  const pending: unknown[] = [value];
  const depths: number[] = [0];
  while (pending.length > 0) {
    const next = pending.pop();
    const depth = depths.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth === levels) return true;
    for (const member of Object.values(next) as unknown[])
      if (member !== null && typeof member === 'object') {
        pending.push(member);
        depths.push(depth + 1);
      }
  }
  return false;
}

function walkedText(value: unknown): string {
  const out: string[] = [];
  const open: Open[] = [];
  const write = (member: unknown): void => {
    if (member === null || typeof member !== 'object') return void out.push(scalarText(member));
    const list = Array.isArray(member);
    out.push(list ? '[' : '{');
    open.push({ value: member, keys: list ? null : Object.keys(member), next: 0, written: 0 });
  };
  write(value);
  while (open.length > 0) {
    const top = open.at(-1)!;
    if (top.keys === null) {
      const list = top.value as readonly unknown[];
      if (top.next === list.length) {
        out.push(']');
        open.pop();
        continue;
      }
      if (top.next > 0) out.push(',');
      const entry = list[top.next];
      top.next += 1;
      write(isWritten(entry) ? entry : null);
      continue;
    }
    const record = top.value as Readonly<Record<string, unknown>>;
    let key: string | undefined;
    while (top.next < top.keys.length && key === undefined) {
      const candidate = top.keys[top.next]!;
      top.next += 1;
      if (isWritten(record[candidate])) key = candidate;
    }
    if (key === undefined) {
      out.push('}');
      open.pop();
      continue;
    }
    out.push(`${top.written > 0 ? ',' : ''}${JSON.stringify(key)}:`);
    top.written += 1;
    write(record[key]);
  }
  return out.join('');
}

/** What JSON.stringify writes a member of: undefined, functions and symbols it leaves out. */
const isWritten = (value: unknown): boolean =>
  value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';

function scalarText(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') throw new TypeError('a bigint has no JSON text');
  return 'null';
}
