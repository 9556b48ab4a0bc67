// The injection's defaults from the settings (flags, environment, dotenv file): the same for
// `sfd-sidecar inject` and `sfd-sidecar injector`.
import { parseListen, parseOneOf, parseUpstreamUrl } from '../config/parsers.js';
import { parseProfileName } from '../config/profile-parsers.js';
import type { SettingReader } from '../config/setting-reader.js';
import { SETTINGS } from '../config/settings.js';
import { SIGNATURE_VERSIONS } from '../signing/types.js';
import { VERSION } from '../version.js';
import { INJECTION_MODES, parseSecretName, type InjectionOptions } from './injection-options.js';

/** The sidecar's own default ports: those of SFD_LISTEN and SFD_ADMIN_LISTEN. */
const portOf = (text: string | undefined): number => {
  const parsed = parseListen(text ?? '');
  if (!parsed.ok) throw new Error(`the default ${text} is not an address`);
  return parsed.value.port;
};

export function readInjectionOptions(r: SettingReader): InjectionOptions {
  const upstream = r.read('upstreamUrl', parseUpstreamUrl);
  return Object.freeze({
    image: r.raw('image')?.trim() ?? SETTINGS.image.defaultText.replace('VERSION', VERSION),
    keystoreSecret: r.read('keystoreSecret', parseSecretName) ?? null,
    keystoreKey: r.raw('keystoreSecretKey')?.trim() ?? SETTINGS.keystoreSecretKey.defaultText,
    profile: r.read('profile', parseProfileName, SETTINGS.profile.defaultText) ?? SETTINGS.profile.defaultText,
    upstreamUrl: upstream === undefined ? null : r.raw('upstreamUrl')!.trim(),
    signatureVersion: r.read('signatureVersion', parseOneOf(SIGNATURE_VERSIONS)) ?? null,
    mode: r.read('sidecarMode', parseOneOf(INJECTION_MODES), SETTINGS.sidecarMode.defaultText) ?? 'native',
    signingPort: portOf(SETTINGS.listen.defaultText),
    adminPort: portOf(SETTINGS.adminListen.defaultText),
  });
}
