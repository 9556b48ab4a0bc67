// A word of a command line printed for a person to paste into a POSIX shell: as it is when the shell
// would read it back unchanged, else in single quotes, so a path with a space or a `$` stays one word.
const PLAIN = /^[A-Za-z0-9_./:=@%+,-]+$/;

export function shellWord(text: string): string {
  return PLAIN.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
