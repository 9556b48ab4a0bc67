// The text of a changed YAML document with every node the change did not touch given back as it came.
// The library writes a changed document anew in its own layout: blank lines lose their spaces, `key:`
// then `{}` on the next line joins one line, a flow collection is padded as the whole document's are.
// Here the written document and the source are walked side by side: a node of the same value at the
// same place takes its source text, and so does the white space between two nodes that follow each
// other in both, so that only what the change wrote is new text. Pure: no I/O.
import type { Document } from 'yaml';
import { isMap, isNode, isScalar, isSeq, type Node, type Pair } from 'yaml';

/** A piece of the written text to replace by source text. */
interface Replacement {
  readonly from: number;
  readonly to: number;
  readonly text: string;
}

/** Two texts and their parsed documents, walked side by side. */
interface Sides {
  readonly source: string;
  readonly written: string;
  readonly sourceDocument: Document.Parsed;
  readonly writtenDocument: Document.Parsed;
  readonly replacements: Replacement[];
}

/** One entry of a collection: a pair's key and value, or a list's item as its value. */
interface Entry {
  readonly key: Node | null;
  readonly value: Node | null;
}

/**
 * The written text with the untouched nodes' source text; the caller checks that it reads as the
 * written text does.
 */
export function withUntouchedText(
  [source, sourceDocument]: readonly [string, Document.Parsed],
  [written, writtenDocument]: readonly [string, Document.Parsed],
): string {
  const sides: Sides = { source, written, sourceDocument, writtenDocument, replacements: [] };
  giveBack(sides, sourceDocument.contents, writtenDocument.contents);
  let text = written;
  for (const { from, to, text: original } of sides.replacements.sort((a, b) => b.from - a.from))
    text = text.slice(0, from) + original + text.slice(to);
  return text;
}

function giveBack(sides: Sides, was: Node | null, now: Node | null): void {
  if (!was?.range || !now?.range) return;
  const text = sides.source.slice(was.range[0], was.range[1]);
  const sameColumn = columnOf(sides.source, was.range[0]) === columnOf(sides.written, now.range[0]);
  if (sameValue(sides, was, now) && (sameColumn || !text.includes('\n'))) {
    sides.replacements.push({ from: now.range[0], to: now.range[1], text });
    return;
  }
  const collections = (isMap(was) && isMap(now)) || (isSeq(was) && isSeq(now));
  if (!collections || was.flow !== now.flow) return;
  const before = entriesOf(was);
  const after = entriesOf(now);
  const matched = after.map((entry) => counterpart(sides, entry, before));
  for (const [index, entry] of after.entries()) {
    const match = matched[index];
    if (match === undefined) continue;
    const other = before[match]!;
    giveBack(sides, other.key, entry.key);
    giveBack(sides, other.value, entry.value);
    if (other.key && entry.key && other.value && entry.value)
      giveBackGap(sides, [endOf(other.key), startOf(other.value)], [endOf(entry.key), startOf(entry.value)], {
        loose: loosePlaced(other.value) && loosePlaced(entry.value),
      });
    const next = matched[index + 1];
    if (next === match + 1)
      giveBackGap(sides, [endOf(other), startOf(before[next]!)], [endOf(entry), startOf(after[index + 1]!)]);
  }
  if (!was.flow || after.length === 0) return;
  // A flow collection's brackets keep their source padding, whatever entries the change added or took.
  const before0 = before[0];
  const beforeLast = before.at(-1);
  if (before0) giveBackGap(sides, [was.range[0] + 1, startOf(before0)], [now.range[0] + 1, startOf(after[0]!)]);
  const closes = (text: string, end: number): boolean => /[\]}]/.test(text.charAt(end - 1));
  if (beforeLast && closes(sides.source, was.range[1]) && closes(sides.written, now.range[1]))
    giveBackGap(sides, [endOf(beforeLast), was.range[1] - 1], [endOf(after.at(-1)!), now.range[1] - 1]);
}

/**
 * The source's white space between two nodes in place of the written one, when both separate the same
 * indicators (`:`, `,`, `-`) on one line, or over as many lines ending at the same column; or over any lines when the
 * node after them is a plain value or a flow collection, which may start on the next line as well.
 */
function giveBackGap(
  sides: Sides,
  [wasFrom, wasTo]: readonly [number, number],
  [nowFrom, nowTo]: readonly [number, number],
  { loose }: { readonly loose: boolean } = { loose: false },
): void {
  const was = sides.source.slice(wasFrom, wasTo);
  const now = sides.written.slice(nowFrom, nowTo);
  if (![wasFrom, wasTo, nowFrom, nowTo].every(Number.isFinite) || wasFrom > wasTo || nowFrom > nowTo) return;
  if (was === now) return;
  const marks = (gap: string): string => gap.replace(/\s/g, '');
  if (marks(was) !== marks(now) || !/^[,:-]*$/.test(marks(was))) return;
  const lines = (gap: string): number => gap.split('\n').length;
  const indent = (gap: string): string => gap.slice(gap.lastIndexOf('\n') + 1);
  const sameLines = lines(was) === lines(now) && (lines(was) === 1 || indent(was) === indent(now));
  if (!loose && !sameLines) return;
  sides.replacements.push({ from: nowFrom, to: nowTo, text: was });
}

/** Where in the source list the written entry stands: the same key, the same `name`, or the same value. */
function counterpart(sides: Sides, entry: Entry, before: readonly Entry[]): number | undefined {
  if (entry.key) {
    const key = plainOf(entry.key);
    const index = before.findIndex((other) => other.key && plainOf(other.key) === key);
    return index < 0 ? undefined : index;
  }
  const name = nameOf(entry.value);
  const index =
    name === undefined
      ? before.findIndex((other) => other.value && entry.value && sameValue(sides, other.value, entry.value))
      : before.findIndex((other) => nameOf(other.value) === name);
  return index < 0 ? undefined : index;
}

function entriesOf(collection: Node): Entry[] {
  if (isMap(collection))
    return (collection.items as Pair<Node | null, Node | null>[]).map((pair) => ({
      key: pair.key,
      value: pair.value,
    }));
  return isSeq(collection) ? (collection.items as (Node | null)[]).map((value) => ({ key: null, value })) : [];
}

function startOf(entry: Entry | Node): number {
  const node = isNode(entry) ? entry : (entry.key ?? entry.value);
  return node?.range?.[0] ?? Number.NaN;
}

function endOf(entry: Entry | Node): number {
  const node = isNode(entry) ? entry : (entry.value ?? entry.key);
  return node?.range?.[1] ?? Number.NaN;
}

/** A value that may stand on the key's line or on the next: a one-line scalar or a flow collection. */
function loosePlaced(node: Node): boolean {
  if (isScalar(node)) return node.type !== 'BLOCK_LITERAL' && node.type !== 'BLOCK_FOLDED';
  return (isMap(node) || isSeq(node)) && node.flow === true;
}

function sameValue(sides: Sides, was: Node, now: Node): boolean {
  return (
    JSON.stringify(was.toJS(sides.sourceDocument) as unknown) ===
    JSON.stringify(now.toJS(sides.writtenDocument) as unknown)
  );
}

const plainOf = (node: Node): string => JSON.stringify(isScalar(node) ? node.value : null);

function nameOf(node: Node | null): string | undefined {
  if (!isMap(node)) return undefined;
  const name = node.get('name');
  return typeof name === 'string' ? name : undefined;
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}
