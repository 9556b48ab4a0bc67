// The string to sign for both schemes and every scheme 2 shape.
// Everything before the body is built as a byte string (latin1, one char per byte, as Node's HTTP
// parser and client treat header and request-target bytes); the body is appended as raw bytes.
import type { SignatureVersion, V2StringShape } from './types.js';

export interface StringToSignParts {
  readonly method: string;
  /** The uri line: the path alone, or path and query, as decided by the query placement. */
  readonly uri: string;
  readonly date: string;
  readonly nonce: string;
  readonly accessKeyId: string;
  /** Scheme 2 only: the canonical header block, each line ending in LF. */
  readonly canonicalHeaders: string;
  readonly signatureVersion: SignatureVersion;
  readonly v2StringShape: V2StringShape;
}

/** Returns the part of the string to sign that precedes the body position. */
export function buildStringToSignPrefix(p: StringToSignParts): string {
  const head = `${p.method.toUpperCase()}\n${p.uri}\n`;
  if (p.signatureVersion === '1') {
    // Scheme 1: method LF uri LF date LF nonce LF accessKeyId LF body
    return `${head}${p.date}\n${p.nonce}\n${p.accessKeyId}\n`;
  }
  switch (p.v2StringShape) {
    case 'spec': // canonicalHeaders LF accessKeyId LF body
      return `${head}${p.canonicalHeaders}\n${p.accessKeyId}\n`;
    case 'no-extra-lf': // canonicalHeaders accessKeyId LF body
      return `${head}${p.canonicalHeaders}${p.accessKeyId}\n`;
    case 'no-keyid': // canonicalHeaders LF body
      return `${head}${p.canonicalHeaders}\n`;
    case 'no-keyid-no-extra-lf': // canonicalHeaders body
      return `${head}${p.canonicalHeaders}`;
  }
}
