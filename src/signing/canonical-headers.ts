// Canonical headers of signature scheme 2.
import type { HeaderField } from './types.js';

/** Spec step 1.1: Host plus every header whose lowercase name starts with x-sfd-. */
export function isCanonicalHeaderName(lowercaseName: string): boolean {
  return lowercaseName === 'host' || lowercaseName.startsWith('x-sfd-');
}

/**
 * Builds the canonical header block: one `name:value` line per header, each ending in LF.
 * - names lowercased, names and values trimmed (step 1.2);
 * - sorted by character code of the lowercase name (step 1.3);
 * - repeated headers joined by commas in their original order (step 1.4).
 */
export function buildCanonicalHeaders(fields: readonly HeaderField[]): string {
  const valuesByName = new Map<string, string[]>();
  for (const field of fields) {
    const name = field.name.trim().toLowerCase();
    if (!isCanonicalHeaderName(name)) continue;
    const values = valuesByName.get(name);
    const value = field.value.trim();
    if (values) values.push(value);
    else valuesByName.set(name, [value]);
  }
  const names = [...valuesByName.keys()].sort(compareByCharCode);
  let block = '';
  for (const name of names) block += `${name}:${(valuesByName.get(name) ?? []).join(',')}\n`;
  return block;
}

function compareByCharCode(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The canonical block when the caller sent no X-SFD-* header of its own: the signer's four fields,
 * already in canonical order (host < x-sfd-date < x-sfd-nonce < x-sfd-signature-version), built
 * without the general path's map, sort and joins (it runs on every request). Equal to
 * buildCanonicalHeaders over the same fields; a unit test holds the two together.
 */
export function canonicalHeadersOfSignerFields(host: string, date: string, nonce: string): string {
  return `host:${host.trim()}\nx-sfd-date:${date}\nx-sfd-nonce:${nonce}\nx-sfd-signature-version:2\n`;
}
