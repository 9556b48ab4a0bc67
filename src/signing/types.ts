// Types shared by the signing modules: signature schemes, string shapes, query placements and keys.
import type { KeyObject } from 'node:crypto';

/** Scheme 1 (no version header) and scheme 2 (`X-SFD-Signature-Version: 2`). */
export const SIGNATURE_VERSIONS = ['2', '1'] as const;
export type SignatureVersion = (typeof SIGNATURE_VERSIONS)[number];

/** The four readings of the scheme 2 string to sign. */
export const V2_STRING_SHAPES = ['spec', 'no-extra-lf', 'no-keyid', 'no-keyid-no-extra-lf'] as const;
export type V2StringShape = (typeof V2_STRING_SHAPES)[number];

/** Where the query string of a GET/HEAD goes in the string to sign. */
export const QUERY_PLACEMENTS = ['body', 'uri'] as const;
export type QueryPlacement = (typeof QUERY_PLACEMENTS)[number];

export interface SigningOptions {
  readonly signatureVersion: SignatureVersion;
  readonly v2StringShape: V2StringShape;
  readonly queryPlacement: QueryPlacement;
}

/**
 * An access key pair. The secret is a KeyObject so that it never prints: logging, JSON.stringify and
 * util.inspect all show no key material.
 */
export interface AccessKey {
  readonly accessKeyId: string;
  readonly secret: KeyObject;
}

/** One header line as received or to be sent: repeated headers are repeated fields. */
export interface HeaderField {
  readonly name: string;
  readonly value: string;
}
