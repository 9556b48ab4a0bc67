// YAML, read and written through one library: the only module that imports yaml. Readers here never
// let the library print (its warnings quote the text) and report problems by position only.
import { Document, isMap, isScalar, isSeq, parseDocument, stringify, type YAMLError } from 'yaml';

export type { YAMLError };

export interface YamlProblem {
  readonly code: YAMLError['code'];
  /** Character offset of the problem in the text. */
  readonly offset: number;
}

/** One YAML (or, with `json`, JSON) document: every error and warning as a problem, or the value. */
export function readYamlDocument(
  text: string,
  options: { readonly json?: boolean; readonly uniqueKeys?: boolean; readonly maxAliasCount: number },
):
  | { ok: true; value: unknown; offsetOf: (path: YamlPath) => number }
  | { ok: false; problems: YamlProblem[]; tooManyAliases?: true } {
  const document = parseDocument(text, {
    logLevel: 'silent',
    prettyErrors: false,
    uniqueKeys: options.uniqueKeys ?? true,
    ...(options.json ? { schema: 'json' as const } : {}),
  });
  const found = [...document.errors, ...document.warnings];
  if (found.length > 0)
    return { ok: false, problems: found.map((error) => ({ code: error.code, offset: error.pos[0] })) };
  try {
    const value = document.toJS({ maxAliasCount: options.maxAliasCount }) as unknown;
    return { ok: true, value, offsetOf: (path) => offsetIn(document, path) };
  } catch {
    return { ok: false, problems: [], tooManyAliases: true };
  }
}

/** Where a value sits: mapping keys and list indexes from the top of the document. */
export type YamlPath = readonly (string | number)[];

/** The offset of the node at `path` (of its key, in a mapping), or of the deepest part of it found. */
function offsetIn(document: Document, path: YamlPath): number {
  let node: unknown = document.contents;
  let offset = startOf(node) ?? 0;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => String(isScalar(item.key) ? item.key.value : item.key) === String(segment),
      );
      if (pair === undefined) break;
      offset = startOf(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      node = node.items[segment];
      offset = startOf(node) ?? offset;
    } else break;
  }
  return offset;
}

function startOf(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range?.[0];
}

/** A value as a YAML document (generated files). */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 120 });
}

/**
 * A value as a YAML document with comments where `commentOf` gives one for a node's path, on the line
 * the node ends on (suggestions and generated files meant to be read); the collections `flow` names are
 * written on one line, as `{methods: [GET], paths: [/a]}`.
 */
export function toCommentedYaml(
  value: unknown,
  commentOf: (path: YamlPath) => string | undefined,
  flow: (path: YamlPath) => boolean = () => false,
): string {
  const document = new Document(value);
  const walk = (node: unknown, path: YamlPath): void => {
    const comment = commentOf(path);
    if ((isMap(node) || isSeq(node)) && flow(path)) node.flow = true;
    if (comment && (isScalar(node) || ((isMap(node) || isSeq(node)) && node.flow))) node.comment = ` ${comment}`;
    else if (comment && (isMap(node) || isSeq(node))) node.commentBefore = ` ${comment}`;
    if (isMap(node))
      for (const pair of node.items)
        walk(pair.value, [...path, String(isScalar(pair.key) ? pair.key.value : pair.key)]);
    if (isSeq(node)) node.items.forEach((item, index) => walk(item, [...path, index]));
  };
  walk(document.contents, []);
  return document.toString({ lineWidth: 120 });
}
