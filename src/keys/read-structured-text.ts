// Parses a key store's text: JSON, or YAML for files named .yaml/.yml. The text may hold secrets, and
// parsers quote the text around a problem (yaml even prints its warnings to stderr by itself). Here
// every problem is a place (line and column) and a description of its own; nothing of the text leaves
// this module but the parsed value.
import { findJsonSyntaxProblem } from '../text/json-syntax.js';
import { readYamlDocument, type YamlPath, type YamlProblem, type YAMLError } from '../text/yaml.js';

export type StructuredText =
  { ok: true; value: unknown; place: (path: YamlPath) => string } | { ok: false; problems: string[] };

/** Aliases a key store needs are few; a document that expands many is refused, not expanded. */
const MAX_ALIAS_COUNT = 100;

export function parseStructuredText(text: string, fileName: string): StructuredText {
  if (text.trim() === '') return { ok: false, problems: ['(file): the file is empty'] };
  return /\.ya?ml$/i.test(fileName) ? parseYaml(text) : parseJson(text);
}

function parseYaml(text: string): StructuredText {
  const read = readYamlDocument(text, { maxAliasCount: MAX_ALIAS_COUNT });
  if (read.ok) return { ok: true, value: read.value, place: placeIn(text, read.offsetOf) };
  // A warning is a problem too: an unknown tag (`!vault ...`) would otherwise be read as a plain string.
  if (read.tooManyAliases)
    return { ok: false, problems: [`(file): not valid YAML: aliases expand to more than ${MAX_ALIAS_COUNT} nodes`] };
  return { ok: false, problems: read.problems.map((problem) => describeProblem(problem, text, 'YAML')) };
}

function parseJson(text: string): StructuredText {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    // JSON.parse's message quotes the text, and not every one says where; a JSON parser of its own does.
    const problem = findJsonSyntaxProblem(text);
    return {
      ok: false,
      problems: [`(file): not valid JSON${problem ? `${where(text, problem.offset)}: ${problem.description}` : ''}`],
    };
  }
  // JSON.parse keeps the last of two equal keys without a word: a key store where `secret` appears
  // twice in one key is ambiguous, so it is refused as it is in YAML.
  const checked = readYamlDocument(text, { json: true, maxAliasCount: 0 });
  if (checked.ok) return { ok: true, value, place: placeIn(text, checked.offsetOf) };
  const duplicate = checked.problems.find((problem) => problem.code === 'DUPLICATE_KEY');
  if (duplicate) return { ok: false, problems: [describeProblem(duplicate, text, 'JSON')] };
  return { ok: true, value, place: () => 'line 1, column 1' };
}

/** What each of yaml's problem codes means, in words that quote nothing. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  TAG_RESOLVE_FAILED: 'a tag the key store does not know (such as !vault); write the value as a plain string',
  DUPLICATE_KEY: 'a key that appears twice in the same mapping',
  BAD_INDENT: 'bad indentation',
  TAB_AS_INDENT: 'a tab used for indentation',
  MULTIPLE_DOCS: 'more than one document where one is read',
  BAD_ALIAS: 'an alias to an anchor that is not defined before it',
  MISSING_CHAR: 'a missing character (an unclosed quote, bracket or brace)',
  UNEXPECTED_TOKEN: 'an unexpected character',
  BAD_DQ_ESCAPE: 'a bad escape in a double-quoted string',
  MULTILINE_IMPLICIT_KEY: 'a key that spans more than one line',
  BLOCK_AS_IMPLICIT_KEY: 'a block value used as a key',
  NON_STRING_KEY: 'a key that is not a string',
  KEY_OVER_1024_CHARS: 'a key longer than 1024 characters',
  RESOURCE_EXHAUSTION: 'aliases that expand too far, or collections nested too deep',
  MERGE_CONFLICT:
    'a key set both by a merge key (<<) and explicitly, which kubectl reads as the later of the two and YAML as ' +
    'the explicit one: write the value once',
};

function describeProblem(problem: YamlProblem, text: string, format: 'YAML' | 'JSON'): string {
  return `(file): not valid ${format}${where(text, problem.offset)}: ${describeYamlCode(problem.code)}`;
}

export function describeYamlCode(code: YAMLError['code'] | 'MERGE_CONFLICT'): string {
  return DESCRIPTIONS[code] ?? `a syntax problem (${code})`;
}

/** ` at line L, column C` (1-based) of a character offset. */
export function where(text: string, offset: number): string {
  return whereIn(text)(offset);
}

/**
 * `where` for any number of offsets in one text: its lines are found once, so that a text with a
 * problem in each of its many documents is described in time linear in its length.
 */
export function whereIn(text: string): (offset: number) => string {
  const lineAndColumn = lineAndColumnIn(text);
  return (offset) => ` at ${lineAndColumn(offset)}`;
}

/** `line L, column C` (1-based) of each offset asked for; the line starts are found at the first. */
function lineAndColumnIn(text: string): (offset: number) => string {
  let starts: number[] | undefined;
  return (offset) => {
    starts ??= lineStarts(text);
    const at = Math.max(0, Math.min(offset, text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return `line ${low + 1}, column ${at - starts[low]! + 1}`;
  };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}

const placeIn = (text: string, offsetOf: (path: YamlPath) => number): ((path: YamlPath) => string) => {
  const lineAndColumn = lineAndColumnIn(text);
  return (path) => lineAndColumn(offsetOf(path));
};
