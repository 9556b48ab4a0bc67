// JSON.parse keeps the last of two members of one object with the same name, without a word: a value
// written to be read one way (`{"billing": {...limited...}, "$(SFD_PROFILE)": "*"}`) can be read another
// once something rewrites a name. A setting read as JSON refuses a repeated name instead. Names are
// compared as JSON.parse decodes them (`"\u0062illing"` is `billing`). One pass over the text.

interface Frame {
  /** The names seen so far, for an object; null for an array. */
  readonly names: Set<string> | null;
  /** The next string of an object is a member's name. */
  expectsName: boolean;
}

/** The first name an object of this JSON text repeats, or null; the text must be valid JSON. */
export function repeatedJsonMember(text: string): string | null {
  const frames: Frame[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    const top = frames.at(-1);
    if (char === '"') {
      const end = stringEnd(text, index);
      if (top?.names && top.expectsName) {
        const name = JSON.parse(text.slice(index, end + 1)) as string;
        if (top.names.has(name)) return name;
        top.names.add(name);
        top.expectsName = false;
      }
      index = end;
    } else if (char === '{' || char === '[') frames.push({ names: char === '{' ? new Set() : null, expectsName: true });
    else if (char === '}' || char === ']') frames.pop();
    else if (char === ',' && top !== undefined) top.expectsName = true;
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
  return index;
}
