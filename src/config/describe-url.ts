// A URL as the sidecar names it in logs, errors and answers: without the user and password it may carry,
// which are said to be there. Every URL the sidecar reports or refuses goes through here: a refusal reaches
// logs, a pod's events and a CI job's output, and a password in the URL would go with it.

const WITH_CREDENTIALS = ' (with credentials)';
/** Where the host part ends. */
const AUTHORITY_END = /[/?#]/;
/** A scheme and the slashes after it, any number of them and `\` for `/`, as URL parsers read them. */
const SCHEME = /^\s*([a-z][a-z0-9+.-]*):([\\/]*)/i;
const LEADING_SLASHES = /^\s*[\\/]*/;

/**
 * `http://proxy:3128 (with credentials)` for `http://user:password@proxy:3128`. A text is described as
 * written, whether or not it parses: a URL written without its scheme (`user:password@proxy:3128`, as
 * clients read a proxy) has its authority from the start, and everything up to the last `@` before the
 * path is left out, whatever a parser would make of it.
 */
export function describeUrl(url: string | URL): string {
  if (typeof url !== 'string') {
    const path = url.pathname === '/' && !url.search && !url.hash ? '' : `${url.pathname}${url.search}${url.hash}`;
    return `${url.protocol}//${url.host}${path}${url.username || url.password ? WITH_CREDENTIALS : ''}`;
  }
  // `user:password@host` is a URL without its scheme, not the scheme `user`; `https:user@host` is https's.
  const scheme = SCHEME.exec(url);
  const start =
    scheme && (scheme[2] !== '' || /^https?$/i.test(scheme[1]!))
      ? scheme[0].length
      : LEADING_SLASHES.exec(url)![0].length;
  const rest = url.slice(start);
  const end = rest.search(AUTHORITY_END);
  const at = rest.slice(0, end === -1 ? rest.length : end).lastIndexOf('@');
  return at === -1 ? url : `${url.slice(0, start)}${rest.slice(at + 1)}${WITH_CREDENTIALS}`;
}
