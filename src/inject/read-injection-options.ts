// The injection's defaults from the settings (flags, environment, dotenv file): the same for
// `sfd-sidecar inject` and `sfd-sidecar injector`.
import type { SettingReader } from '../config/setting-reader.js';
import { SETTINGS } from '../config/settings.js';
import { VERSION } from '../version.js';
import type { InjectionOptions } from './injection-options.js';

export function readInjectionOptions(r: SettingReader): InjectionOptions {
  const upstream = r.value('upstreamUrl');
  return Object.freeze({
    image: r.value('image') ?? `ghcr.io/example/sfd-sidecar:${VERSION}`,
    keystoreSecret: r.value('keystoreSecret') ?? null,
    keystoreKey: r.value('keystoreSecretKey'),
    profile: r.value('profile'),
    upstreamUrl: upstream === undefined ? null : r.raw('upstreamUrl')!.trim(),
    // Given to the sidecar only when set, so that the sidecar's own default applies otherwise.
    signatureVersion: r.isSet('signatureVersion') ? r.value('signatureVersion') : null,
    mode: r.value('sidecarMode'),
    sidecarUser: r.value('sidecarUser'),
    signingPort: SETTINGS.listen.default.port,
    adminPort: SETTINGS.adminListen.default.port,
  });
}
