// A value that could not be read, as a message repeats it: quoted when it is short and on one line, as
// a setting's mistaken value is, otherwise only its length. A long value is rarely a typo and may be
// anything (a pod can point a setting at any Secret key, a file's whole text among them), and every
// message reaches a log.

/** The longest value a message quotes. */
const MAX_QUOTED = 64;

export function quoteValue(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (text.length <= MAX_QUOTED && !/[\u0000-\u001f\u007f]/.test(text)) return JSON.stringify(text);
  return `a value of ${text.length} characters`;
}
