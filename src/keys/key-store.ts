// The loaded key store: profiles with their keys (secrets as KeyObjects), windows, and per-profile
// upstream and signing settings. Built whole from a file, then never changed: a reload builds another.
import type { UpstreamTarget } from '../config/parsers.js';
import type { OperationLimit } from '../operations/operation-limit.js';
import type { AccessKey, SigningOptions } from '../signing/types.js';

export interface StoredKey {
  readonly key: AccessKey;
  /** Epoch ms; null when the key has no lower bound. */
  readonly notBefore: number | null;
  /** Epoch ms; null when the key does not expire. */
  readonly notAfter: number | null;
}

export interface Profile {
  readonly name: string;
  readonly keys: readonly StoredKey[];
  /** The profile's own upstream, or null to use SFD_UPSTREAM_URL. */
  readonly upstream: UpstreamTarget | null;
  /** Signing settings the profile sets; the rest come from the global settings. */
  readonly signing: Partial<SigningOptions>;
  /** The operations it signs, the hard limit every narrowing stays within; null: every operation. */
  readonly operations: OperationLimit | null;
}

export interface KeyStore {
  readonly profiles: ReadonlyMap<string, Profile>;
}

/** The implicit one-profile store of SFD_ACCESS_KEY_ID and SFD_ACCESS_KEY_SECRET[_FILE]. */
export function singleKeyStore(profileName: string, key: AccessKey): KeyStore {
  const profile: Profile = {
    name: profileName,
    keys: [{ key, notBefore: null, notAfter: null }],
    upstream: null,
    signing: {},
    operations: null,
  };
  return { profiles: new Map([[profileName, profile]]) };
}
