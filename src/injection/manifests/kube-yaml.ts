// Kubernetes manifests in YAML, read as kubectl reads them and written so that kubectl reads back what
// was meant. kubectl parses YAML 1.1 (yes/on are booleans, 0644 is octal, `<<` merges, `!!binary` is
// the text its bytes spell) but leaves timestamps and sexagesimal numbers as strings; a reader that saw
// `hostNetwork: yes` as a string would judge a pod kubectl sends as host-network. Its parser also
// refuses plain scalars that YAML 1.2 allows (`:9090` inside a flow mapping), so every string written
// here is plain only when any YAML 1.1 parser reads it back as the same string.
import type { Document } from 'yaml';
import {
  Composer,
  CST,
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  Parser,
  Scalar,
  visit,
  type Node,
  type Pair,
  type ParsedNode,
  type ScalarTag,
  type YAMLSeq,
} from 'yaml';
import { MAX_NESTING } from './max-nesting.js';
import { withUntouchedText } from './untouched-text.js';

export interface YamlProblem {
  /** The parser's code for the problem, or DUPLICATE_KEY. */
  readonly code: string;
  /** Character offset of the problem in the text. */
  readonly offset: number;
}

/** `0o644`, which kubectl reads as octal and YAML 1.1 itself does not know; never chosen for new numbers. */
const OCTAL_O: ScalarTag = {
  identify: (value) => typeof value === 'number',
  default: false,
  tag: 'tag:yaml.org,2002:int',
  format: 'OCT_O',
  test: /^[-+]?0o[0-7_]+$/,
  resolve: (source) => {
    const sign = source.startsWith('-') ? -1 : 1;
    return sign * parseInt(source.replace(/^[-+]?0o/, '').replaceAll('_', ''), 8);
  },
  stringify: ({ value }) => `${Number(value) < 0 ? '-' : ''}0o${Math.abs(Number(value)).toString(8)}`,
};

/**
 * Floats as kubectl reads them: digits first (`E0`, `e5` and `.` are strings there, though YAML 1.1's
 * own patterns take them for numbers); a float read from the text is written back as it was.
 */
const FLOAT: ScalarTag = {
  identify: (value) => typeof value === 'number' && !Number.isInteger(value),
  default: true,
  tag: 'tag:yaml.org,2002:float',
  format: 'KUBECTL',
  test: /^[-+]?(?:\.[0-9_]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?$/,
  resolve: (source) => Number(source.replaceAll('_', '')),
  stringify: ({ value, source }) => (typeof source === 'string' ? source : String(value)),
};

/**
 * `!!binary` as kubectl reads it: the string its bytes spell, so that a key written `!!binary
 * Y29udGFpbmVycw==` is `containers` here too. A value read this way is written back the same way.
 */
const BINARY: ScalarTag = {
  identify: () => false,
  default: false,
  tag: 'tag:yaml.org,2002:binary',
  resolve: (source) => Buffer.from(source, 'base64').toString('utf8'),
  stringify: ({ value }) => Buffer.from(String(value), 'utf8').toString('base64'),
};

const isFiniteFloatTag = (tag: ScalarTag): boolean =>
  tag.tag === 'tag:yaml.org,2002:float' && !String(tag.test).includes('inf');

const KUBECTL_TAGS = (tags: unknown[]): unknown[] => [
  ...tags.filter((tag) => {
    const scalar = tag as ScalarTag;
    return (
      scalar.tag !== 'tag:yaml.org,2002:timestamp' &&
      scalar.tag !== BINARY.tag &&
      scalar.format !== 'TIME' &&
      !isFiniteFloatTag(scalar)
    );
  }),
  FLOAT,
  OCTAL_O,
  BINARY,
];

const OPTIONS = {
  version: '1.1' as const,
  customTags: KUBECTL_TAGS as never,
  logLevel: 'silent' as const,
  prettyErrors: false,
  uniqueKeys: false,
};

/** Strings every YAML 1.1 parser reads back as themselves when written plain (types aside). */
const SAFE_PLAIN = /^[A-Za-z0-9_/][A-Za-z0-9_./=+@-]*$/;

/** A stream of YAML documents that can be changed one by one and written back. */
export interface YamlStream {
  /**
   * The documents in order, each parsed when it is reached: a document left unchanged is let go once
   * passed, so a large stream is held in memory one document at a time.
   */
  readonly documents: Iterable<StreamDocument>;
  /** The text again: documents left alone exactly as they came, changed ones rewritten. */
  toString(): string;
}

export interface StreamDocument {
  /** The document's value as kubectl reads it; undefined when it has a problem. */
  readonly value: unknown;
  readonly problem: YamlProblem | null;
  /**
   * Whether the document must be written whole when changed: anchors and merge keys (an edit through
   * them would reach every use), or a repeated key (kubectl keeps the last; an edit could land on the
   * first).
   */
  readonly shared: boolean;
  /** Sets the value at a path (keys and indexes); the rest keeps its text and comments. */
  set(path: readonly (string | number)[], value: unknown): void;
  /** Inserts a value into the sequence at the path's parent, before the index. */
  insert(path: readonly (string | number)[], value: unknown): void;
  /** Removes the value at a path. */
  remove(path: readonly (string | number)[]): void;
  /** Replaces the whole document by a value (comments are lost). */
  replace(value: unknown): void;
}

/**
 * The stream's documents, every one parsed: whether a document holds a pod template is known only once
 * it is read as kubectl reads it (`"c\u006Fntainers"` is `containers` there), never from its text.
 */
export function readKubeYamlStream(text: string): YamlStream {
  const chunks = documentChunks(text);
  const changed = new Map<number, Document.Parsed>();
  function* views(): Generator<StreamDocument> {
    for (const [index, chunk] of chunks.entries())
      yield readDocument(text.slice(chunk.start, chunk.end), chunk.start, (document) => changed.set(index, document));
  }
  return {
    documents: { [Symbol.iterator]: views },
    toString() {
      if (changed.size === 0) return text;
      return chunks
        .map((chunk, index) => {
          const document = changed.get(index);
          if (!document) return text.slice(chunk.start, chunk.end);
          // Literal, never folded: the library's folded writer backtracks over runs of blank lines. Flow
          // collections and block lists are written as the document writes its own, so that the nodes
          // the change did not touch keep their text.
          const source = text.slice(chunk.start, chunk.end);
          const written = document.toString({
            lineWidth: 0,
            blockQuote: 'literal',
            flowCollectionPadding: padsFlowCollections(source),
            indentSeq: indentsBlockLists(source),
          });
          const kept = keepUntouchedText(source, written);
          // The next document must start on a line of its own.
          return index < chunks.length - 1 && !kept.endsWith('\n') ? `${kept}\n` : kept;
        })
        .join('');
    },
  };
}

/**
 * One document: its value and what it shares. Its tree is not kept: a document that is changed is
 * parsed again, and `changing` is told of the tree the changes are made to.
 */
function readDocument(source: string, start: number, changing: (document: Document.Parsed) => void): StreamDocument {
  const read = readValue(source);
  if ('problem' in read) {
    const problem = { ...read.problem, offset: start + read.problem.offset };
    return { value: undefined, problem, shared: false, set: unread, insert: unread, remove: unread, replace: unread };
  }
  let tree: Document.Parsed | undefined;
  const edited = (): Document.Parsed => {
    // The same text, read once already without a problem.
    if (!tree) changing((tree = (parseOne(source) as { document: Document.Parsed }).document));
    return tree;
  };
  return {
    value: read.value,
    problem: null,
    shared: read.shared,
    set(path, value) {
      const document = edited();
      document.setIn(path, value === null ? emptyNull() : plainSafe(document.createNode(value)));
    },
    insert(path, value) {
      const document = edited();
      const sequence = document.getIn(path.slice(0, -1), true) as YAMLSeq;
      const at = Number(path.at(-1));
      // A comment above a block list belongs to its first entry, which stays the entry it labels.
      const first = sequence.items[0] as Node | undefined;
      if (at === 0 && first && sequence.commentBefore && !sequence.flow) {
        first.commentBefore = [sequence.commentBefore, first.commentBefore].filter(Boolean).join('\n');
        sequence.commentBefore = undefined;
      }
      sequence.items.splice(at, 0, plainSafe(document.createNode(value)));
    },
    remove(path) {
      edited().deleteIn(path);
    },
    replace(value) {
      const document = edited();
      document.contents = plainSafe(document.createNode(value)) as ParsedNode;
    },
  };
}

/**
 * The written document with the source text of every node the change did not touch, when it reads as
 * the written one does. A document with anchors or a repeated key is written whole: its text stays so.
 */
function keepUntouchedText(source: string, written: string): string {
  const parsed = (text: string): Document.Parsed | null => {
    const read = parseOne(text);
    return 'document' in read ? read.document : null;
  };
  const original = parsed(source);
  const rewritten = parsed(written);
  if (!original || !rewritten || usesAnchors(original) || duplicateKey(original)) return written;
  const kept = withUntouchedText([source, original], [written, rewritten]);
  if (kept === written) return written;
  const keptValue = readValue(kept);
  const writtenValue = readValue(written);
  const same =
    'value' in keptValue &&
    'value' in writtenValue &&
    JSON.stringify(keptValue.value) === JSON.stringify(writtenValue.value);
  return same ? kept : written;
}

/** The document's value and whether it shares nodes, or its first problem (offset within the text). */
function readValue(source: string): { value: unknown; shared: boolean } | { problem: YamlProblem } {
  try {
    const parsed = parseOne(source);
    if ('problem' in parsed) return parsed;
    const { document } = parsed;
    const key = collectionKey(document);
    if (key !== null) return { problem: { code: 'NON_STRING_KEY', offset: key } };
    const value = document.toJS({ maxAliasCount: 100 }) as unknown;
    return { value, shared: usesAnchors(document) || duplicateKey(document) };
  } catch (error) {
    // The library parses nested collections by recursion, which a text can nest past the stack, and
    // throws on aliases that expand too far: either is a document that cannot be read, not a crash.
    if (error instanceof RangeError || error instanceof ReferenceError)
      return { problem: { code: 'RESOURCE_EXHAUSTION', offset: 0 } };
    throw error;
  }
}

const unread = (): never => {
  throw new Error('a document that could not be read cannot be changed');
};

/** One document's text parsed, or its first problem (offset within the text). */
function parseOne(source: string): { document: Document.Parsed } | { problem: YamlProblem } {
  const tokens = Array.from(new Parser().parse(source));
  if (nestingDepth(tokens) > MAX_NESTING) return { problem: { code: 'RESOURCE_EXHAUSTION', offset: 0 } };
  // Forced: a text of comments and blank lines alone is an empty document, which kubectl skips.
  const [document, extra] = Array.from(new Composer(OPTIONS).compose(tokens, true, source.length));
  if (!document) return { problem: { code: 'BAD_DIRECTIVE', offset: 0 } };
  const error = document.errors[0] ?? document.warnings[0] ?? extra?.errors[0];
  if (error) return { problem: { code: error.code, offset: error.pos[0] } };
  if (extra) return { problem: { code: 'MULTIPLE_DOCS', offset: extra.range[0] } };
  const conflict = mergeConflict(document);
  if (conflict !== null) return { problem: { code: 'MERGE_CONFLICT', offset: conflict } };
  return { document };
}

/**
 * Where a mapping sets a key explicitly and then, to another value, through a later merge key (`<<`);
 * null when none does. YAML lets the explicit key win; kubectl's reader lets the later of the two win,
 * so such a mapping means one thing to `inject` and another to the API server: it is refused rather than
 * judged. A merge key before the explicit key, or one that repeats the explicit value, means the same to
 * both and is read as written.
 */
function mergeConflict(document: Document.Parsed): number | null {
  let found: number | null = null;
  const keyOf = (pair: Pair): unknown => (isScalar(pair.key) ? pair.key.value : pair.key);
  const valueOf = (pair: Pair): string => {
    const value = isAlias(pair.value) ? pair.value.resolve(document) : pair.value;
    return JSON.stringify(isNode(value) ? value.toJS(document) : value);
  };
  visit(document, {
    Map(_, map) {
      const explicitBefore = new Map<unknown, Pair>();
      for (const pair of map.items) {
        if (!isMergeKey(pair.key)) {
          explicitBefore.set(keyOf(pair), pair);
          continue;
        }
        const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
        for (const source of sources) {
          const target = isAlias(source) ? source.resolve(document) : source;
          if (!isMap(target)) continue;
          const differs = target.items.some((merged) => {
            const explicit = explicitBefore.get(keyOf(merged));
            return explicit !== undefined && valueOf(explicit) !== valueOf(merged);
          });
          if (differs) {
            found = map.range?.[0] ?? 0;
            return visit.BREAK;
          }
        }
      }
      return undefined;
    },
  });
  return found;
}

/** How deep the collections of the parsed text nest, found without recursion. */
function nestingDepth(tokens: readonly CST.Token[]): number {
  let deepest = 0;
  const pending: [CST.Token, number][] = tokens.map((token) => [token, 0]);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [token, depth] = next;
    deepest = Math.max(deepest, depth);
    if (token.type === 'document' && token.value) pending.push([token.value, depth]);
    else if (CST.isCollection(token))
      for (const item of token.items)
        for (const child of [item.key, item.value]) if (child) pending.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Where each document of the stream starts and ends: at each `---` that opens a line, which YAML
 * forbids anywhere else at the start of a line. What stands before the first marker belongs to the
 * document after it when it holds only comments, blank lines or directives; a part that opens with a
 * marker is a document of its own, empty or not (kubectl skips an empty one).
 */
function documentChunks(text: string): { start: number; end: number }[] {
  const markers = Array.from(text.matchAll(/^---(?=[ \t\r\n]|$)/gm), (match) => match.index);
  const starts = markers[0] === 0 ? markers : [0, ...markers];
  const chunks = starts.map((start, index) => ({ start, end: starts[index + 1] ?? text.length }));
  const second = chunks[1];
  if (markers[0] !== 0 && second && isPrelude(text.slice(0, second.start)))
    return [{ start: 0, end: second.end }, ...chunks.slice(2)];
  return chunks;
}

/**
 * A line of a stream's prelude: blank, a comment or a directive. Each quantifier is followed by what it
 * cannot match, so a line is matched in time linear in its length.
 */
const PRELUDE_LINE = /^[ \t]*(?:[#%].*)?\r?$/;

/** Whether the text holds only comments, blank lines and directives, found line by line in linear time. */
function isPrelude(text: string): boolean {
  return text.split('\n').every((line) => PRELUDE_LINE.test(line));
}

/**
 * Where the first key that is a collection (or an alias of one) starts, or null. kubectl refuses such a
 * key, and the library would write each one out as text to make it a property name, and the keys nested
 * in it again for each: work exponential in the nesting of `? ? ? ...`.
 */
function collectionKey(document: Document.Parsed): number | null {
  let found: number | null = null;
  visit(document, {
    Pair(_, pair) {
      const key = isAlias(pair.key) ? pair.key.resolve(document) : pair.key;
      if (!isMap(key) && !isSeq(key)) return undefined;
      found = (pair.key as Node).range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return found;
}

/** Whether a mapping repeats a key (kubectl keeps the last), found in linear time. */
function duplicateKey(document: Document.Parsed): boolean {
  let found = false;
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(key)) {
          found = true;
          return visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  return found;
}

/** A mapping's `<<` key, which the parser reads as a merge (its value a symbol, not the text). */
const isMergeKey = (key: unknown): boolean => isScalar(key) && (key.value === '<<' || typeof key.value === 'symbol');

function usesAnchors(document: Document.Parsed): boolean {
  let found = false;
  visit(document, {
    Node(_, node) {
      if (isAlias(node) || (isScalar(node) && node.anchor) || ((isMap(node) || isSeq(node)) && node.anchor)) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
    Pair(_, pair) {
      if (isMergeKey(pair.key)) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** Quotes every string of a new node that a YAML 1.1 parser could read otherwise when plain. */
function plainSafe<T>(node: T): T {
  visit(node as Node, {
    Scalar(_, scalar: Scalar) {
      if (typeof scalar.value === 'string' && !SAFE_PLAIN.test(scalar.value)) scalar.type = 'QUOTE_DOUBLE';
    },
  });
  return node;
}

/**
 * Whether the text writes a block list under a key indented (`key:` then `  - item`), as the library
 * does by default, rather than at the key's own column (`key:` then `- item`, as kubectl prints).
 * Each quantifier is followed by what it cannot match, so a line is read in time linear in its length.
 */
function indentsBlockLists(text: string): boolean {
  const lines = text.split('\n');
  for (let index = 0; index + 1 < lines.length; index += 1) {
    const key = /^( *)(?:- )?[^\s#-][^#]*:\s*$/.exec(lines[index]!);
    if (!key) continue;
    const column = key[1]!.length + (lines[index]!.trimStart().startsWith('- ') ? 2 : 0);
    const item = /^( *)- /.exec(lines[index + 1]!);
    if (item) return item[1]!.length > column;
  }
  return true;
}

/** Whether the text writes its flow collections with a space inside the brackets (`{ a: b }`, `[ x ]`). */
function padsFlowCollections(text: string): boolean {
  const padded = /[{[] [^\s\]}]/.test(text);
  const tight = /[{[][^\s\]}]/.test(text);
  return padded || !tight;
}

/** A null written as nothing after its key (`env:`), as charts render an unset list and kubectl reads it. */
function emptyNull(): Scalar {
  const scalar = new Scalar(null);
  scalar.source = '';
  return scalar;
}
