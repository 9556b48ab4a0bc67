// YAML, read and written through one library: the only module that imports yaml. Readers here never
// let the library print (its warnings quote the text) and report problems by position only.
import { parseDocument, stringify, type YAMLError } from 'yaml';

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

/** A value as a YAML document (generated files). */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 120 });
}
