// RE2 patterns, the syntax CEL's matches() and Kubernetes' find() take, as JavaScript regular
// expressions: leading flag groups become flags, named groups lose their P, POSIX classes are spelled
// out. RE2 constructs JavaScript lacks (\C, \Q...\E, flags mid-pattern) make the pattern invalid here.
const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** The JavaScript equivalent of an RE2 pattern, or an Error when RE2 or this translation rejects it. */
export function compileRe2(pattern: string): RegExp {
  let flags = 'u';
  let body = pattern;
  const leading = /^\(\?([imsU]+)\)/.exec(body);
  if (leading) {
    if (leading[1]!.includes('U')) throw new Error('non-greedy flag is not supported here');
    flags += leading[1]!.replace('m', 'm');
    body = body.slice(leading[0].length);
  }
  body = body
    .replaceAll('(?P<', '(?<')
    .replace(/\[:(\^?)([a-z]+):\]/g, (whole, negated: string, name: string) => {
      const range = POSIX_CLASSES[name];
      if (!range) throw new Error(`invalid character class range: ${whole}`);
      if (negated) throw new Error('negated POSIX classes are not supported here');
      return range;
    })
    .replaceAll('\\z', '$(?![\\s\\S])');
  if (/\\[CQEpP]|\(\?[imsU-]/.test(body)) throw new Error('RE2 construct not supported here');
  return new RegExp(body, flags);
}
