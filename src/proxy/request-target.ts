// Where a request goes upstream: origin-form (`/path?query`) or absolute-form naming the configured
// upstream host. Bytes of path and query are kept exactly; the upstream's path prefix is
// prepended. The sidecar never sends credentials to a host the caller chose.
import type { UpstreamTarget } from '../config/parsers.js';
import type { SidecarErrorName } from '../errors.js';

/** Path (upstream prefix included) and raw query (null without `?`) as they go upstream. */
export interface AcceptedTarget {
  readonly path: string;
  readonly rawQuery: string | null;
}

export type RequestTarget =
  ({ readonly ok: true } & AcceptedTarget) | { readonly ok: false; readonly error: SidecarErrorName };

const ABSOLUTE_FORM = /^(https?):\/\/([^/?#]*)(.*)$/i;

export function resolveRequestTarget(rawUrl: string, upstream: UpstreamTarget): RequestTarget {
  let originForm = rawUrl;
  if (!rawUrl.startsWith('/')) {
    const match = ABSOLUTE_FORM.exec(rawUrl);
    if (!match) return { ok: false, error: 'BadRequest' };
    const [, scheme = '', authority = '', rest = ''] = match;
    if (!namesUpstream(scheme.toLowerCase(), authority, upstream)) return { ok: false, error: 'ForbiddenTarget' };
    if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?')) return { ok: false, error: 'BadRequest' };
    originForm = rest.startsWith('/') ? rest : `/${rest}`;
  }
  if (originForm.includes('#')) return { ok: false, error: 'BadRequest' };
  const queryAt = originForm.indexOf('?');
  const path = queryAt === -1 ? originForm : originForm.slice(0, queryAt);
  if (hasDotSegment(path)) return { ok: false, error: 'BadRequest' };
  const rawQuery = queryAt === -1 ? null : originForm.slice(queryAt + 1);
  return { ok: true, path: upstream.pathPrefix + path, rawQuery };
}

/** The authority names the upstream when its host matches and its port, if any, is the upstream's. */
function namesUpstream(scheme: string, authority: string, upstream: UpstreamTarget): boolean {
  if (authority.includes('@')) return false; // userinfo tricks (`upstream@evil`) are refused outright
  const match = /^(\[[^\]]+\]|[^:]*)(?::(\d*))?$/.exec(authority);
  if (!match) return false;
  const host = (match[1] ?? '').toLowerCase().replace(/^\[|\]$/g, '');
  const portText = match[2];
  const port = portText ? Number(portText) : scheme === 'https' ? 443 : 80;
  const hostMatches = host === upstream.hostname.toLowerCase();
  const portMatches = portText ? port === upstream.port : true;
  return hostMatches && portMatches;
}

/**
 * A `.` or `..` segment, written plainly or percent-encoded (%2e), with `/`, `%2f` or `\\` as separators,
 * would let a caller climb out of the upstream URL's path prefix once the upstream normalises it. So
 * would one followed by path parameters (`/..;/admin`, `/..%3bx/admin`): servers that strip `;`
 * parameters from a segment then see `..`; one padded with NUL, space or tab (`/..%00/`, `/..%20/`),
 * which servers trim; and dots in overlong UTF-8 (`%c0%ae`, `%e0%80%ae`), which lenient decoders read
 * as `.`.
 */
export function hasDotSegment(path: string): boolean {
  return DOT_SEGMENT.test(path);
}

/**
 * A `.`, `..`, or an encoded or overlong form, between padding a server trims, from a separator or the
 * start to a separator, a `;` or the end.
 */
const PADDING = '(?:%00|%20|%09| |\\t)*';
const DOT = '(?:\\.|%2e|%c0%ae|%e0%80%ae)';
const DOT_SEGMENT = new RegExp(`(?:^|/|%2f|%5c|\\\\)${PADDING}${DOT}{1,2}${PADDING}(?=$|/|%2f|%5c|\\\\|;|%3b)`, 'i');
