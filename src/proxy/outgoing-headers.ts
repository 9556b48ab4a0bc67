// Which of the caller's headers go upstream (issue #2, design "The path of one request"):
// - the caller's Authorization, X-SFD-Date, X-SFD-Nonce and X-SFD-Signature-Version are dropped
//   (the signer sets its own), and so are Host, Content-Type and Content-Length;
// - hop-by-hop headers (RFC 9110 §7.6.1) and every header the Connection header names are dropped;
// - the caller's other X-SFD-* headers go upstream and are returned for signing (spec: custom
//   X-SFD- headers are canonical headers); every other header passes through unsigned.
import type { OutgoingHttpHeaders } from 'node:http';
import type { HeaderField } from '../signing/types.js';

const REPLACED = ['host', 'content-length', 'content-type', 'authorization', 'x-sfd-date', 'x-sfd-nonce', 'x-sfd-signature-version'];
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect'];
const DROPPED = new Set([...REPLACED, ...HOP_BY_HOP]);

export interface PreparedHeaders {
  /** Headers to forward (signed headers not yet added); repeated headers as arrays. */
  readonly headers: OutgoingHttpHeaders;
  /** The caller's X-SFD-* fields that are forwarded, in order, for the canonical headers. */
  readonly extraSfdHeaders: HeaderField[];
  /** The caller asked for the connection to be closed after this exchange. */
  readonly closeRequested: boolean;
}

/**
 * @param rawHeaders Node's `rawHeaders`: name, value, name, value...
 * @param privateHeader a lowercase header meant for the sidecar alone (SFD_PROFILE_HEADER), or null
 */
export function prepareOutgoingHeaders(rawHeaders: readonly string[], privateHeader: string | null = null): PreparedHeaders {
  const named = connectionOptions(rawHeaders);
  const headers: Record<string, string | string[]> = {};
  const casing = new Map<string, string>();
  const extraSfdHeaders: HeaderField[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    const lower = name.toLowerCase();
    if (DROPPED.has(lower) || named.has(lower) || lower === privateHeader) continue;
    if (lower.startsWith('x-sfd-')) extraSfdHeaders.push({ name, value });
    const key = casing.get(lower);
    if (key === undefined) {
      casing.set(lower, name);
      headers[name] = value;
    } else {
      const existing = headers[key]!;
      headers[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
  }
  return { headers, extraSfdHeaders, closeRequested: named.has('close') };
}

/** Shared by every message without a Connection header; never added to. */
const NO_OPTIONS: ReadonlySet<string> = new Set();
/**
 * The values nearly every message carries (Node's servers answer `Connection: keep-alive` on every
 * response), shared and never added to, so that a message with one of them builds no set.
 */
const COMMON_OPTIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['keep-alive', new Set(['keep-alive'])],
  ['close', new Set(['close'])],
]);

/** The options the Connection header(s) name, lowercase (RFC 9110 §7.6.1). */
function connectionOptions(rawHeaders: readonly string[]): ReadonlySet<string> {
  let common: ReadonlySet<string> | undefined;
  let options: Set<string> | null = null;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length !== 10 || name.toLowerCase() !== 'connection') continue; // length first: most names are not it
    const value = rawHeaders[i + 1]!;
    if (common === undefined && options === null) {
      common = COMMON_OPTIONS.get(value.toLowerCase());
      if (common !== undefined) continue;
    }
    options ??= new Set(common);
    for (const token of value.split(',')) {
      const option = token.trim().toLowerCase();
      if (option) options.add(option);
    }
  }
  return options ?? common ?? NO_OPTIONS;
}

const RESPONSE_HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'trailer', 'te']);

/** The upstream's response headers for the caller, raw pairs kept in order and case, hop-by-hop removed. */
export function responseHeadersForCaller(rawHeaders: readonly string[]): string[] {
  const named = connectionOptions(rawHeaders);
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const lower = rawHeaders[i]!.toLowerCase();
    if (RESPONSE_HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}
