// The notification relay's configuration, read with the core's by `serve` and `doctor`: null unless
// SFD_NOTIFY_LISTEN is set.
import type { ConfigPart } from '../config/config-part.js';
import type { ListenAddress } from '../config/parsers.js';
import type { SettingReader } from '../config/setting-reader.js';
import { SETTINGS } from '../config/settings.js';
import { NOTIFY_SETTINGS } from './settings/notify-settings.js';

export interface NotifyConfig {
  readonly listen: ListenAddress;
  readonly path: string;
  readonly forwardUrl: URL;
  readonly token: string | null;
  readonly allowedCidrs: string | null;
  readonly requireHeader: boolean;
  readonly maxBodyBytes: number;
  /** SFD_NOTIFY_MAX_INFLIGHT: notifications in hand at once. */
  readonly maxInflight: number;
  /** SFD_NOTIFY_MAX_CONNECTIONS: connections the relay holds. */
  readonly maxConnections: number;
  readonly timeoutMs: number;
  readonly deadLetterDir: string | null;
  /** SFD_NOTIFY_DEAD_LETTER_MAX_BYTES: the dead-letter file's cap. */
  readonly deadLetterMaxBytes: number;
}

export const DEFAULT_NOTIFY_MAX_INFLIGHT = NOTIFY_SETTINGS.notifyMaxInflight.default;
export const DEFAULT_NOTIFY_MAX_CONNECTIONS = NOTIFY_SETTINGS.notifyMaxConnections.default;
export const DEFAULT_DEAD_LETTER_MAX_BYTES = NOTIFY_SETTINGS.notifyDeadLetterMaxBytes.default;

/**
 * The smallest dead-letter cap that always takes the largest notification the relay accepts: a letter
 * holds its body and head JSON-escaped, up to 6 bytes for each byte received (`\u0000`), and its own
 * fields (time, id, the problems found: a few hundred bytes, 4 KiB allowed). A smaller cap could
 * refuse that notification every time it came.
 */
export function smallestDeadLetterCap(maxBodyBytes: number, maxHeaderBytes: number): number {
  return 6 * (maxBodyBytes + maxHeaderBytes) + 4096;
}

export function readNotifyConfig(r: SettingReader, maxHeaderBytes: number): NotifyConfig | null {
  const listen = r.value(NOTIFY_SETTINGS.notifyListen);
  const config = {
    path: r.value(NOTIFY_SETTINGS.notifyPath),
    token: r.value(NOTIFY_SETTINGS.notifyToken) ?? null,
    allowedCidrs: r.value(NOTIFY_SETTINGS.notifyAllowedCidrs) ?? null,
    requireHeader: r.value(NOTIFY_SETTINGS.notifyRequireHeader) === 'true',
    maxBodyBytes: r.value(NOTIFY_SETTINGS.notifyMaxBodyBytes),
    maxInflight: r.value(NOTIFY_SETTINGS.notifyMaxInflight),
    maxConnections: r.value(NOTIFY_SETTINGS.notifyMaxConnections),
    timeoutMs: r.value(NOTIFY_SETTINGS.notifyTimeoutMs),
    deadLetterDir: r.raw(NOTIFY_SETTINGS.notifyDeadLetterDir)?.trim() ?? null,
    deadLetterMaxBytes: r.value(NOTIFY_SETTINGS.notifyDeadLetterMaxBytes),
  };
  const forwardUrl = r.value(NOTIFY_SETTINGS.notifyForwardUrl);
  if (!r.isSet(NOTIFY_SETTINGS.notifyListen)) return null;
  if (!r.isSet(NOTIFY_SETTINGS.notifyForwardUrl))
    r.problems.push(
      `${NOTIFY_SETTINGS.notifyForwardUrl.env}: required with ${NOTIFY_SETTINGS.notifyListen.env}, ` +
        'where the application takes notifications',
    );
  if (config.deadLetterDir) {
    const smallestCap = smallestDeadLetterCap(config.maxBodyBytes, maxHeaderBytes);
    if (config.deadLetterMaxBytes < smallestCap) {
      r.problems.push(
        `${NOTIFY_SETTINGS.notifyDeadLetterMaxBytes.env}: must be at least ${smallestCap}, so that the dead-letter ` +
          `file can take the largest notification accepted (6 times ${NOTIFY_SETTINGS.notifyMaxBodyBytes.env} plus ` +
          `${SETTINGS.maxHeaderBytes.env}, as JSON-escaped, plus 4096)`,
      );
    }
  }
  if (!listen || !forwardUrl) return null;
  return Object.freeze({ listen, forwardUrl, ...config });
}

/** The relay as a part of the configuration: its one listener joins the check for a shared port. */
export const NOTIFY_CONFIG_PART: ConfigPart<NotifyConfig | null> = {
  read: (r, core) => readNotifyConfig(r, core.limits.maxHeaderBytes),
  listeners: (notify) => (notify ? [[NOTIFY_SETTINGS.notifyListen, notify.listen]] : []),
};
