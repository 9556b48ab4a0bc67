// YAML, read and written through one library: the only module that imports yaml. Readers here never
// let the library print (its warnings quote the text) and report problems by position only.
import { parseAllDocuments, parseDocument, stringify, type Document, type YAMLError } from 'yaml';

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
): { ok: true; value: unknown } | { ok: false; problems: YamlProblem[]; tooManyAliases?: true } {
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
    return { ok: true, value: document.toJS({ maxAliasCount: options.maxAliasCount }) as unknown };
  } catch {
    return { ok: false, problems: [], tooManyAliases: true };
  }
}

/** A stream of YAML documents that can be changed one by one and written back. */
export interface YamlStream {
  readonly documents: readonly StreamDocument[];
  /** The text again: documents left alone exactly as they came, changed ones rewritten. */
  toString(): string;
}

export interface StreamDocument {
  /** The document's value, or a problem with its position. */
  readonly value: unknown;
  readonly problem: YamlProblem | null;
  /** Sets the value at a path (keys and indexes) in this document; the rest keeps its text and comments. */
  set(path: readonly (string | number)[], value: unknown): void;
  /** Removes the value at a path. */
  remove(path: readonly (string | number)[]): void;
}

export function readYamlStream(text: string): YamlStream {
  const parsed = parseAllDocuments(text, { logLevel: 'silent', prettyErrors: false, uniqueKeys: true });
  const documents: Document[] = Array.isArray(parsed) ? parsed : [];
  const changed = new Set<number>();
  const views: StreamDocument[] = documents.map((document, index) => {
    const error = document.errors[0] ?? document.warnings[0];
    return {
      value: error ? null : (document.toJS({ maxAliasCount: 100 }) as unknown),
      problem: error ? { code: error.code, offset: error.pos[0] } : null,
      set(path, value) {
        document.setIn(path, document.createNode(value));
        changed.add(index);
      },
      remove(path) {
        document.deleteIn(path);
        changed.add(index);
      },
    };
  });
  return {
    documents: views,
    toString() {
      if (changed.size === 0) return text;
      const starts = documents.map((document, index) => (index === 0 ? 0 : (document.range?.[0] ?? text.length)));
      return documents
        .map((document, index) =>
          changed.has(index) ? document.toString() : text.slice(starts[index], starts[index + 1] ?? text.length),
        )
        .join('');
    },
  };
}

/** A value as a YAML document (generated files). */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 120 });
}
