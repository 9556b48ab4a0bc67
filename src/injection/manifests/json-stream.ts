// A stream of JSON values one after the other (`{...}{...}`, or one per line), as kubectl reads a file
// that starts with `{`: each value with its place in the text, so that values left alone are written
// back exactly as they came. Linear in the text's length.

export interface JsonValueSpan {
  /** Where the value's text starts and ends (end exclusive). */
  readonly start: number;
  readonly end: number;
  readonly value: unknown;
  /** How deep its objects and arrays nest (1 for a flat object). */
  readonly depth: number;
}

export type JsonStream =
  { readonly ok: true; readonly values: readonly JsonValueSpan[] } | { readonly ok: false; readonly offset: number };

const OPEN = new Set(['{', '[']);
const CLOSE = new Set(['}', ']']);

/** The values of the stream, or the offset of the first value that is not JSON. */
export function readJsonStream(text: string): JsonStream {
  const values: JsonValueSpan[] = [];
  let index = skipSpace(text, 0);
  while (index < text.length) {
    const found = endOfValue(text, index);
    if (found === null) return { ok: false, offset: index };
    const { end, depth } = found;
    try {
      values.push({ start: index, end, depth, value: JSON.parse(text.slice(index, end)) as unknown });
    } catch {
      return { ok: false, offset: index };
    }
    index = skipSpace(text, end);
  }
  return { ok: true, values };
}

function skipSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && /\s/.test(text[index]!)) index += 1;
  return index;
}

/** The end of the object or array starting at `start`, by its brackets outside strings, and its depth. */
function endOfValue(text: string, start: number): { end: number; depth: number } | null {
  if (!OPEN.has(text[start]!)) return null;
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index]!;
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (OPEN.has(char)) deepest = Math.max(deepest, (depth += 1));
    else if (CLOSE.has(char)) {
      depth -= 1;
      if (depth === 0) return { end: index + 1, depth: deepest };
    }
  }
  return null;
}
