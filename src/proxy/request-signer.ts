// Signs a request with a given key, host and form, taking a fresh date and nonce from the injected
// clock and nonce source for every call, retries included.
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
  /** The upstream Host value. */
  readonly host: string;
  readonly options: SigningOptions;
}

export type RequestSigner = (request: SignableRequest, identity: SigningIdentity) => SignResult;

export function createRequestSigner(deps: {
  readonly now: () => number;
  readonly nextNonce: NonceSource;
}): RequestSigner {
  const formatDate = createCachedDateFormatter();
  // Fields are copied one by one: an object spread here makes V8 allocate per request an object that
  // survives into the old generation, where collecting it costs far more than in the young one.
  return (request, identity) =>
    signRequest({
      method: request.method,
      path: request.path,
      rawQuery: request.rawQuery,
      extraSfdHeaders: request.extraSfdHeaders,
      body: request.body,
      key: identity.key,
      host: identity.host,
      options: identity.options,
      date: formatDate(deps.now()),
      nonce: deps.nextNonce(),
    });
}
