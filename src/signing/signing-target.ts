// Which uri line and which bytes in the body position are signed. The query's placement `body` applies
// to GET and HEAD only: other methods always sign their body.
import type { QueryPlacement } from './types.js';

export interface SigningTarget {
  readonly uri: string;
  readonly bodyPosition: Buffer;
}

const QUERY_IN_BODY_METHODS = new Set(['GET', 'HEAD']);

/** Whether the query is signed in the body's place, so that the body itself is not signed. */
export function queryReplacesBody(method: string, rawQuery: string | null, placement: QueryPlacement): boolean {
  return placement === 'body' && QUERY_IN_BODY_METHODS.has(method.toUpperCase()) && !!rawQuery;
}

/**
 * @param path the request path as forwarded (no query), a byte string
 * @param rawQuery the raw query string as sent, without `?`; null when the target had no `?`
 * @param body the exact body bytes forwarded
 *
 * Placement `body`, GET and HEAD: the uri line is the path alone and a non-empty query takes the body
 * position; with no query the body itself is signed (callers that send `{}` on a GET sign `{}`).
 * Every other case: the uri line is the request target as forwarded, path and `?query`.
 */
export function selectSigningTarget(
  method: string,
  path: string,
  rawQuery: string | null,
  body: Buffer,
  placement: QueryPlacement,
): SigningTarget {
  if (placement === 'body' && QUERY_IN_BODY_METHODS.has(method.toUpperCase())) {
    const queryBytes = rawQuery ? Buffer.from(rawQuery, 'latin1') : null;
    return { uri: path, bodyPosition: queryBytes ?? body };
  }
  return { uri: rawQuery === null ? path : `${path}?${rawQuery}`, bodyPosition: body };
}
