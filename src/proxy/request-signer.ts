// Binds the signer to what stays fixed for a listener (upstream host, signing options) and to the
// injected clock, nonce source and key provider; fresh date and nonce for every call (field-notes §2).
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

export interface SignedRequest extends SignResult {
  readonly accessKeyId: string;
}

export interface RequestSignerDeps {
  /** The upstream Host value (field-notes §2). */
  readonly host: string;
  readonly options: SigningOptions;
  /** The key to sign with now, or null when none is usable (not ready). */
  readonly currentKey: () => AccessKey | null;
  readonly now: () => number;
  readonly nextNonce: NonceSource;
}

export type RequestSigner = (request: SignableRequest) => SignedRequest | null;

export function createRequestSigner(deps: RequestSignerDeps): RequestSigner {
  const formatDate = createCachedDateFormatter();
  return (request) => {
    const key = deps.currentKey();
    if (!key) return null;
    const result = signRequest({
      ...request,
      host: deps.host,
      key,
      options: deps.options,
      date: formatDate(deps.now()),
      nonce: deps.nextNonce(),
    });
    return { ...result, accessKeyId: key.accessKeyId };
  };
}
