// Plain text for a terminal: words wrapped to a width, every line after the first indented.

/** The words of `text` in lines of at most `width` columns, each line after the first indented by `indent`. */
export function wrapWords(text: string, indent: number, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => `${' '.repeat(indent)}${l}`);
}
