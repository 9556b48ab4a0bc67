// Signs one request: builds the headers the gateway requires and the Authorization value
// (docs/signing.md has the protocol). Pure: date and nonce are passed in.
import { buildCanonicalHeaders, canonicalHeadersOfSignerFields } from './canonical-headers.js';
import { computeSignature } from './hmac.js';
import { selectSigningTarget } from './signing-target.js';
import { buildStringToSignPrefix } from './string-to-sign.js';
import type { AccessKey, HeaderField, SigningOptions } from './types.js';

/** Spec, "Common request headers": Content-Type has a fixed value. */
export const SFD_CONTENT_TYPE = 'application/json; charset=utf-8';
/** Spec, "Authorization header": the algorithm name. */
export const SIGNATURE_ALGORITHM = 'HMAC-SHA256';

export interface SignInput {
  readonly method: string;
  /** Path as forwarded upstream (upstream prefix included), a byte string. */
  readonly path: string;
  /** Raw query without `?`, or null when there was no `?`. */
  readonly rawQuery: string | null;
  /** The upstream host, with `:port` only when not the scheme's default . */
  readonly host: string;
  /** The caller's own X-SFD-* headers (signature headers already removed); signed under scheme 2. */
  readonly extraSfdHeaders: readonly HeaderField[];
  readonly body: Buffer;
  readonly key: AccessKey;
  readonly options: SigningOptions;
  readonly date: string;
  readonly nonce: string;
}

/** The headers the signer adds or sets, in the gateway's spelling. */
export interface SignedHeaders {
  readonly Host: string;
  readonly 'Content-Type': string;
  readonly 'X-SFD-Date': string;
  readonly 'X-SFD-Nonce': string;
  readonly 'X-SFD-Signature-Version'?: '2';
  readonly Authorization: string;
}

export interface SignResult {
  readonly headers: SignedHeaders;
  /** The string to sign before the body position (byte string). */
  readonly stringToSignPrefix: string;
  /** The bytes in the body position. */
  readonly bodyPosition: Buffer;
  /** Lowercase hex HMAC-SHA256. */
  readonly signature: string;
  /** Scheme 2: the canonical header block that was signed; empty under scheme 1. */
  readonly canonicalHeaders: string;
  /** The uri line that was signed. */
  readonly uri: string;
}

export function signRequest(input: SignInput): SignResult {
  const { options } = input;
  const scheme2 = options.signatureVersion === '2';
  const target = selectSigningTarget(input.method, input.path, input.rawQuery, input.body, options.queryPlacement);
  const canonicalHeaders = !scheme2
    ? ''
    : input.extraSfdHeaders.length === 0
      ? canonicalHeadersOfSignerFields(input.host, input.date, input.nonce)
      : buildCanonicalHeaders([
          { name: 'host', value: input.host },
          { name: 'x-sfd-date', value: input.date },
          { name: 'x-sfd-nonce', value: input.nonce },
          { name: 'x-sfd-signature-version', value: '2' },
          ...input.extraSfdHeaders,
        ]);
  const stringToSignPrefix = buildStringToSignPrefix({
    method: input.method,
    uri: target.uri,
    date: input.date,
    nonce: input.nonce,
    accessKeyId: input.key.accessKeyId,
    canonicalHeaders,
    signatureVersion: options.signatureVersion,
    v2StringShape: options.v2StringShape,
  });
  const signature = computeSignature(input.key.secret, stringToSignPrefix, target.bodyPosition);
  const authorization = `${SIGNATURE_ALGORITHM} ${input.key.accessKeyId}:${signature}`;
  const headers: SignedHeaders = scheme2
    ? {
        Host: input.host,
        'Content-Type': SFD_CONTENT_TYPE,
        'X-SFD-Date': input.date,
        'X-SFD-Nonce': input.nonce,
        'X-SFD-Signature-Version': '2',
        Authorization: authorization,
      }
    : {
        Host: input.host,
        'Content-Type': SFD_CONTENT_TYPE,
        'X-SFD-Date': input.date,
        'X-SFD-Nonce': input.nonce,
        Authorization: authorization,
      };
  return {
    headers,
    stringToSignPrefix,
    bodyPosition: target.bodyPosition,
    signature,
    canonicalHeaders,
    uri: target.uri,
  };
}
