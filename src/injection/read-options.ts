// The injection's defaults from the settings (flags, environment, dotenv file): the same for
// `sfd-sidecar inject` and `sfd-sidecar injector`.
import type { SettingReader } from '../config/setting-reader.js';
import { SETTINGS } from '../config/settings.js';
import { IMAGE_REPOSITORY, VERSION } from '../version.js';
import type { InjectionOptions } from './options.js';

export function readInjectionOptions(r: SettingReader): InjectionOptions {
  const upstream = r.value('upstreamUrl');
  return Object.freeze({
    image: r.value('image') ?? `${IMAGE_REPOSITORY}:${VERSION}`,
    imagePullPolicy: r.value('imagePullPolicy'),
    keystoreSecret: r.value('keystoreSecret') ?? null,
    keystoreKey: r.value('keystoreSecretKey'),
    keystoreLayout: r.value('keystoreLayout'),
    profile: r.value('profile'),
    upstreamUrl: upstream === undefined ? null : r.raw('upstreamUrl')!.trim(),
    // Given to the sidecar only when set, so that the sidecar's own default applies otherwise.
    signatureVersion: r.isSet('signatureVersion') ? r.value('signatureVersion') : null,
    mode: r.value('sidecarMode'),
    sidecarUser: r.value('sidecarUser'),
    resources: {
      cpuRequest: r.value('sidecarCpuRequest'),
      memoryRequest: r.value('sidecarMemoryRequest'),
      cpuLimit: r.value('sidecarCpuLimit'),
      memoryLimit: r.value('sidecarMemoryLimit'),
    },
    signingPort: SETTINGS.listen.default.port,
    adminPort: SETTINGS.adminListen.default.port,
  });
}
