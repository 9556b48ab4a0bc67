// Which of the caller's headers go upstream, and in what order:
// - the caller's Authorization, X-SFD-Date, X-SFD-Nonce and X-SFD-Signature-Version are dropped
//   (the signer sets its own), and so are Host, Content-Type and Content-Length;
// - hop-by-hop headers (RFC 9110 §7.6.1) and every header the Connection header names are dropped;
// - the caller's other X-SFD-* headers go upstream and are returned for signing (custom X-SFD-
//   headers are canonical headers); every other header passes through unsigned;
// - Host goes first (RFC 9110 §7.2), then the caller's headers in the caller's order, then the
//   signer's; the values of a repeated name stay in order (RFC 9110 §5.3).
import { connectionOptions, isRequestHopByHop, isResponseHopByHop } from '../http/hop-by-hop.js';
import type { SignedHeaders } from '../signing/sign-request.js';
import type { HeaderField } from '../signing/types.js';

const REPLACED = new Set([
  'host',
  'content-length',
  'content-type',
  'authorization',
  'x-sfd-date',
  'x-sfd-nonce',
  'x-sfd-signature-version',
]);

/**
 * Header lines in the order they go upstream: name, value, name, value... Each name appears once (in
 * the case of its first appearance); a repeated header's values are an array, one line each.
 */
export type HeaderLines = Array<string | string[]>;

export interface PreparedHeaders {
  /** The caller's headers to forward, in the caller's order (signed headers not yet added). */
  readonly lines: HeaderLines;
  /** The caller's X-SFD-* fields that are forwarded, in order, for the canonical headers. */
  readonly extraSfdHeaders: HeaderField[];
  /** The caller asked for the connection to be closed after this exchange. */
  readonly closeRequested: boolean;
}

/**
 * @param rawHeaders Node's `rawHeaders`: name, value, name, value...
 * @param privateHeader a lowercase header meant for the sidecar alone (SFD_PROFILE_HEADER), or null
 */
export function prepareOutgoingHeaders(
  rawHeaders: readonly string[],
  privateHeader: string | null = null,
): PreparedHeaders {
  const named = connectionOptions(rawHeaders);
  const lines: HeaderLines = [];
  /** Where each lowercase name's value sits in `lines`. */
  const valueAt = new Map<string, number>();
  const extraSfdHeaders: HeaderField[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    const lower = name.toLowerCase();
    if (REPLACED.has(lower) || isRequestHopByHop(lower) || named.has(lower) || lower === privateHeader) continue;
    if (lower.startsWith('x-sfd-')) extraSfdHeaders.push({ name, value });
    const at = valueAt.get(lower);
    if (at === undefined) {
      valueAt.set(lower, lines.length + 1);
      lines.push(name, value);
    } else {
      const existing = lines[at]!;
      lines[at] = Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
  }
  return { lines, extraSfdHeaders, closeRequested: named.has('close') };
}

/**
 * The request's header lines for one attempt: Host, the caller's lines, the signer's other headers in
 * canonical order, and the body's length when there is one to frame (a new list per attempt: a
 * retry is signed again).
 */
export function upstreamHeaderLines(
  callerLines: HeaderLines,
  signed: SignedHeaders,
  contentLength: number | null,
): HeaderLines {
  const lines: HeaderLines = ['Host', signed.Host];
  for (let i = 0; i < callerLines.length; i++) lines.push(callerLines[i]!);
  for (const name in signed) if (name !== 'Host') lines.push(name, signed[name as keyof SignedHeaders]!);
  if (contentLength !== null) lines.push('Content-Length', String(contentLength));
  return lines;
}

/**
 * The upstream's response headers for the caller, raw pairs kept in order and case, hop-by-hop
 * removed. A 204 never carries Content-Length (RFC 9110 §8.6); a 304 may only carry the length its
 * 200 would have had, which the sidecar cannot check, so it carries none either.
 */
export function responseHeadersForCaller(rawHeaders: readonly string[], status: number): string[] {
  const named = connectionOptions(rawHeaders);
  const noLength = status === 204 || status === 304;
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const lower = rawHeaders[i]!.toLowerCase();
    if (isResponseHopByHop(lower) || named.has(lower) || (noLength && lower === 'content-length')) continue;
    kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}

/** What Node lets a response's reason phrase hold (HTAB, SP, VCHAR, obs-text: RFC 9112 §4). */
const SENDABLE_REASON = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The upstream's reason phrase when Node can send it, else undefined (Node's standard phrase for the
 * status). A reason phrase carries no meaning (RFC 9112 §4: a client should ignore it), and one with a
 * DEL character, which Node's parser lets through, makes `writeHead` throw.
 */
export function sendableReason(reason: string | undefined): string | undefined {
  return reason !== undefined && SENDABLE_REASON.test(reason) ? reason : undefined;
}
