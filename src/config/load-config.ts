// Turns setting values (already merged from flags, environment and the dotenv file) into one
// validated, frozen Config for `serve`. Every problem is collected and reported at once.
import type { AccessKey, SigningOptions } from '../signing/types.js';
import { parseInteger, parseListen, parseOneOf, parseUpstreamUrl, type ListenAddress, type UpstreamTarget } from './parsers.js';
import { SettingReader, type FileReader, type SettingValues } from './setting-reader.js';
import { SETTINGS } from './settings.js';

export type { SettingValues } from './setting-reader.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** No upstream and no key configured outside production: run in front of the built-in emulator. */
  readonly demo: boolean;
  /** Null only in the demo, where the emulator's address is known after it listens. */
  readonly upstream: UpstreamTarget | null;
  readonly listen: ListenAddress;
  readonly adminListen: ListenAddress;
  /** Null only in the demo, which uses the emulator's demo key. */
  readonly key: AccessKey | null;
  readonly signing: SigningOptions;
  readonly maxBodyBytes: number;
  readonly upstreamTimeoutMs: number;
  /** PEM text trusted in addition to the system roots. */
  readonly upstreamCa: string | null;
  readonly shutdownTimeoutMs: number;
  readonly logLevel: LogLevel;
}

export interface LoadConfigDeps extends FileReader {
  /** NODE_ENV=production: the demo is never an option. */
  readonly production: boolean;
}

export function loadConfig(values: SettingValues, deps: LoadConfigDeps): Config {
  const r = new SettingReader(values, deps);
  const upstream = r.read('upstreamUrl', parseUpstreamUrl);
  const listen = r.read('listen', parseListen, '127.0.0.1:8080');
  const adminListen = r.read('adminListen', parseListen, '0.0.0.0:9090');
  const signing = r.signingOptions();
  const maxBodyBytes = r.read('maxBodyBytes', parseInteger(1, 1024 * 1024 * 1024), '1048576');
  const upstreamTimeoutMs = r.read('upstreamTimeoutMs', parseInteger(1, 3_600_000), '30000');
  const shutdownTimeoutMs = r.read('shutdownTimeoutMs', parseInteger(0, 3_600_000), '10000');
  const logLevel = r.read('logLevel', parseOneOf(LOG_LEVELS), 'info');
  const upstreamCa = r.file('upstreamCaFile');

  const demo = !deps.production && r.raw('upstreamUrl') === undefined && !r.keyConfigured();
  let key: AccessKey | undefined;
  if (!demo) {
    if (r.raw('upstreamUrl') === undefined) {
      const why = deps.production ? 'NODE_ENV=production never falls back to the demo' : 'the demo runs only when no key is configured';
      r.problems.push(`${SETTINGS.upstreamUrl.env}: required (${why}); an http:// or https:// base URL like https://host[:port][/prefix]`);
    }
    key = r.accessKey();
  }
  r.assertValid();

  return Object.freeze({
    demo,
    upstream: upstream ?? null,
    listen: listen!,
    adminListen: adminListen!,
    key: key ?? null,
    signing,
    maxBodyBytes: maxBodyBytes!,
    upstreamTimeoutMs: upstreamTimeoutMs!,
    upstreamCa,
    shutdownTimeoutMs: shutdownTimeoutMs!,
    logLevel: logLevel!,
  });
}
