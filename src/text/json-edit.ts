// JSON text edited in place, through one library (jsonc-parser): a value set, inserted into a list or
// removed at a path, and every other byte of the text kept, its layout and key order included.
import { applyEdits, findNodeAtLocation, modify, parseTree, type Edit, type FormattingOptions } from 'jsonc-parser';

export type JsonEdit = {
  readonly op: 'set' | 'insert' | 'remove';
  readonly path: readonly (string | number)[];
  readonly value?: unknown;
};

/** The indentation the text uses (two spaces when it cannot be told, as a one-line document). */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)["{[\]}]/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** Whether the object or list that holds the path is written on one line (`{"name": "x"}`). */
function onOneLine(text: string, path: readonly (string | number)[]): boolean {
  const tree = parseTree(text);
  const parent = tree && findNodeAtLocation(tree, [...path.slice(0, -1)]);
  return parent !== undefined && !/[\r\n]/.test(text.slice(parent.offset, parent.offset + parent.length));
}

/**
 * The text to cut to take out the member at the path, one of several in its object or list: from its
 * start to the next member's for the first (what an insertion at the front added), else from the end
 * of the member before it, so that the layout around stays as it was; null for a lone member.
 */
function removalOf(text: string, path: readonly (string | number)[]): Edit | null {
  const tree = parseTree(text);
  const value = tree && findNodeAtLocation(tree, [...path]);
  const member = value?.parent?.type === 'property' ? value.parent : value;
  const siblings = member?.parent?.children ?? [];
  const index = member ? siblings.indexOf(member) : -1;
  if (!member || index < 0 || siblings.length < 2) return null;
  const from = index === 0 ? member.offset : siblings[index - 1]!.offset + siblings[index - 1]!.length;
  const to = index === 0 ? siblings[1]!.offset : member.offset + member.length;
  return { offset: from, length: to - from, content: '' };
}

/**
 * The text with each edit applied in order. A value added to an object or list written on one line
 * stays on that line, so that taking it out again gives back the line as it was.
 */
export function editJsonText(text: string, edits: readonly JsonEdit[]): string {
  const formatting = formattingOf(text);
  let result = text;
  for (const edit of edits) {
    const value = edit.op === 'remove' ? undefined : edit.value;
    // A new key of an object on several lines goes first: formatting reaches the lines an edit touches,
    // and after the last key it would reach the line of that key's value and write it anew.
    const removal = edit.op === 'remove' ? removalOf(result, edit.path) : null;
    if (removal) {
      result = applyEdits(result, [removal]);
      continue;
    }
    const layout = onOneLine(result, edit.path) ? {} : { formattingOptions: formatting, getInsertionIndex: () => 0 };
    const changes = modify(result, [...edit.path], value, {
      ...layout,
      ...(edit.op === 'insert' ? { isArrayInsertion: true } : {}),
    });
    result = applyEdits(result, changes);
  }
  return result;
}
