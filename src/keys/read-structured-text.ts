// Parses a key store's text: JSON, or YAML for files named .yaml/.yml. The only module that imports yaml.
// The text may hold secrets, and parsers quote the text around a problem (yaml even prints its
// warnings to stderr by itself). Here every problem is a place (line and column) and a description of
// its own; nothing of the text leaves this module but the parsed value.
import { parseDocument, type YAMLError } from 'yaml';

export type StructuredText = { ok: true; value: unknown } | { ok: false; problems: string[] };

/** Aliases a key store needs are few; a document that expands many is refused, not expanded. */
const MAX_ALIAS_COUNT = 100;

export function parseStructuredText(text: string, fileName: string): StructuredText {
  if (text.trim() === '') return { ok: false, problems: ['(file): the file is empty'] };
  return /\.ya?ml$/i.test(fileName) ? parseYaml(text) : parseJson(text);
}

function parseYaml(text: string): StructuredText {
  // logLevel silent: yaml writes no warning of its own (its warnings quote the source line).
  const document = parseDocument(text, { logLevel: 'silent', prettyErrors: false, uniqueKeys: true });
  // A warning is a problem too: an unknown tag (`!vault ...`) would otherwise be read as a plain string.
  const found = [...document.errors, ...document.warnings];
  if (found.length > 0) return { ok: false, problems: found.map((error) => describeYamlError(error, text, 'YAML')) };
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown };
  } catch {
    return { ok: false, problems: [`(file): not valid YAML: aliases expand to more than ${MAX_ALIAS_COUNT} nodes`] };
  }
}

function parseJson(text: string): StructuredText {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    // JSON.parse's message quotes the text; YAML's parser, in its JSON schema, locates the problem.
    const located = parseDocument(text, { logLevel: 'silent', prettyErrors: false, schema: 'json' }).errors[0];
    return { ok: false, problems: [located ? describeYamlError(located, text, 'JSON') : '(file): not valid JSON'] };
  }
  // JSON.parse keeps the last of two equal keys without a word: a key store where `secret` appears
  // twice in one key is ambiguous, so it is refused as it is in YAML.
  const duplicate = parseDocument(text, { logLevel: 'silent', prettyErrors: false, schema: 'json', uniqueKeys: true }).errors.find(
    (error) => error.code === 'DUPLICATE_KEY',
  );
  if (duplicate) return { ok: false, problems: [describeYamlError(duplicate, text, 'JSON')] };
  return { ok: true, value };
}

/** What each of yaml's problem codes means, in words that quote nothing. */
const DESCRIPTIONS: Readonly<Partial<Record<YAMLError['code'], string>>> = {
  TAG_RESOLVE_FAILED: 'a tag the key store does not know (such as !vault); write the value as a plain string',
  DUPLICATE_KEY: 'a key that appears twice in the same mapping',
  BAD_INDENT: 'bad indentation',
  TAB_AS_INDENT: 'a tab used for indentation',
  MULTIPLE_DOCS: 'more than one document; a key store is one document',
  BAD_ALIAS: 'an alias to an anchor that is not defined before it',
  MISSING_CHAR: 'a missing character (an unclosed quote, bracket or brace)',
  UNEXPECTED_TOKEN: 'an unexpected character',
  BAD_DQ_ESCAPE: 'a bad escape in a double-quoted string',
  MULTILINE_IMPLICIT_KEY: 'a key that spans more than one line',
  BLOCK_AS_IMPLICIT_KEY: 'a block value used as a key',
  NON_STRING_KEY: 'a key that is not a string',
  KEY_OVER_1024_CHARS: 'a key longer than 1024 characters',
  RESOURCE_EXHAUSTION: 'aliases that expand too far',
};

function describeYamlError(error: YAMLError, text: string, format: 'YAML' | 'JSON'): string {
  const description = DESCRIPTIONS[error.code] ?? `a syntax problem (${error.code})`;
  return `(file): not valid ${format}${where(text, error.pos[0])}: ${description}`;
}

/** ` at line L, column C` (1-based) of a character offset. */
function where(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return ` at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}
