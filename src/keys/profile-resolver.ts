// Which profile signs a request. Without SFD_PROFILE_HEADER every request uses the default
// profile: a caller cannot reach any other profile's key. With it, a caller may name a profile, but
// only one listed in SFD_ALLOWED_PROFILES (or the default); the header never goes upstream.
import type { IncomingHttpHeaders } from 'node:http';
import type { UpstreamTarget } from '../config/parsers.js';
import type { SidecarErrorName } from '../errors.js';
import type { SigningOptions } from '../signing/types.js';
import type { KeyRing } from './key-ring.js';
import { PROFILE_NAME_PATTERN } from '../config/profile-parsers.js';
import type { Profile } from './key-store.js';
import { SETTINGS } from '../config/settings.js';

export interface ResolvedProfile {
  readonly profile: Profile;
  readonly upstream: UpstreamTarget;
  readonly signing: SigningOptions;
}

export type ProfileResolution =
  | { readonly ok: true; readonly resolved: ResolvedProfile }
  | {
      readonly ok: false;
      readonly error: SidecarErrorName;
      readonly profileName?: string;
      /** What keeps the profile from signing, in words a caller can act on (NotReady only). */
      readonly cause?: string;
    };

export interface ProfileResolverOptions {
  readonly ring: KeyRing;
  readonly defaultProfile: string;
  /** Lowercase header name, or null when callers may not choose. */
  readonly header: string | null;
  readonly allowed: ReadonlySet<string>;
  readonly defaultUpstream: UpstreamTarget | null;
  readonly signing: SigningOptions;
}

export type ProfileResolver = (headers: IncomingHttpHeaders) => ProfileResolution;

/**
 * The profiles a request can sign with: the default, and with the header those it allows. The only
 * profiles of a shared key store whose names and key ids the sidecar shows (metrics, log), since the
 * store also holds the other applications' profiles.
 */
export function signableProfiles(
  options: Pick<ProfileResolverOptions, 'defaultProfile' | 'header' | 'allowed'>,
): ReadonlySet<string> {
  return new Set([options.defaultProfile, ...(options.header === null ? [] : options.allowed)]);
}

export function createProfileResolver(options: ProfileResolverOptions): ProfileResolver {
  // Each profile's resolution, with its merged signing settings, built once instead of per request.
  const resolutions = new WeakMap<Profile, ProfileResolution>();
  return (headers) => {
    let name = options.defaultProfile;
    if (options.header !== null) {
      const requested = headers[options.header];
      if (typeof requested === 'string' && requested.trim() !== '') {
        const text = requested.trim();
        if (!PROFILE_NAME_PATTERN.test(text)) return { ok: false, error: 'BadRequest' };
        if (text !== options.defaultProfile && !options.allowed.has(text))
          return { ok: false, error: 'ProfileForbidden', profileName: text };
        name = text;
      } else if (requested !== undefined && typeof requested !== 'string') {
        return { ok: false, error: 'BadRequest' };
      }
    }
    return resolveProfileByName(options, name, resolutions);
  };
}

/**
 * The profile's snapshot, upstream and signing form; NotReady when it has no store entry or upstream.
 * With `resolutions`, each profile's answer is kept: a profile never changes once loaded (a reload
 * builds new ones), so the cache cannot go stale.
 */
export function resolveProfileByName(
  options: Pick<ProfileResolverOptions, 'ring' | 'defaultUpstream' | 'signing'>,
  name: string,
  resolutions?: WeakMap<Profile, ProfileResolution>,
): ProfileResolution {
  const store = options.ring.store();
  const profile = store?.profiles.get(name);
  if (!profile)
    return {
      ok: false,
      error: 'NotReady',
      profileName: name,
      cause: store ? `profile "${name}" is not in the key store` : 'no key store has loaded yet',
    };
  let resolution = resolutions?.get(profile);
  if (resolution === undefined) {
    resolution = resolveProfile(options, profile);
    resolutions?.set(profile, resolution);
  }
  return resolution;
}

function resolveProfile(
  options: Pick<ProfileResolverOptions, 'defaultUpstream' | 'signing'>,
  profile: Profile,
): ProfileResolution {
  const upstream = profile.upstream ?? options.defaultUpstream;
  if (!upstream)
    return {
      ok: false,
      error: 'NotReady',
      profileName: profile.name,
      cause: `profile "${profile.name}" has no upstreamUrl and ${SETTINGS.upstreamUrl.env} is not set`,
    };
  return { ok: true, resolved: { profile, upstream, signing: { ...options.signing, ...profile.signing } } };
}
