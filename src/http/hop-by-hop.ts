// Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, so a proxy drops them, and with
// them every header the Connection header names, before it sends a message on. Every path that
// forwards a message (a signed request upstream, the answer back to the caller, a notification to
// the application) decides with these.

/** Hop-by-hop in a request: the RFC's list, the legacy Proxy-Connection, and Expect (answered here). */
const REQUEST_HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/** Hop-by-hop in a response. */
const RESPONSE_HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'transfer-encoding',
  'upgrade',
  'trailer',
  'te',
]);

export const isRequestHopByHop = (lowercaseName: string): boolean => REQUEST_HOP_BY_HOP.has(lowercaseName);
export const isResponseHopByHop = (lowercaseName: string): boolean => RESPONSE_HOP_BY_HOP.has(lowercaseName);

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

/** The options the Connection header(s) name, lowercase. */
export function connectionOptions(rawHeaders: readonly string[]): ReadonlySet<string> {
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
