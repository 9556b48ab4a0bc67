// Signs a request with a given key, host and form, taking a fresh date and nonce from the injected
// clock and nonce source for every call, retries included (field-notes §2).
import { createCachedDateFormatter } from '../signing/format-date.js';
import type { NonceSource } from '../signing/nonce.js';
import { signRequest, type SignResult } from '../signing/sign-request.js';
import type { AccessKey, HeaderField, SigningOptions } from '../signing/types.js';

export interface SignableRequest {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string | null;
  readonly extraSfdHeaders: readonly HeaderField[];
  readonly body: Buffer;
}

export interface SigningIdentity {
  readonly key: AccessKey;
  /** The upstream Host value (field-notes §2). */
  readonly host: string;
  readonly options: SigningOptions;
}

export type RequestSigner = (request: SignableRequest, identity: SigningIdentity) => SignResult;

export function createRequestSigner(deps: { readonly now: () => number; readonly nextNonce: NonceSource }): RequestSigner {
  const formatDate = createCachedDateFormatter();
  return (request, identity) =>
    signRequest({ ...request, ...identity, date: formatDate(deps.now()), nonce: deps.nextNonce() });
}
