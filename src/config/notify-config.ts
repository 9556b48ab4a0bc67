// The notification relay's settings: off unless SFD_NOTIFY_LISTEN is set.
import type { ListenAddress } from './parsers.js';
import type { SettingReader } from './setting-reader.js';
import { SETTINGS } from './settings.js';

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

export const DEFAULT_NOTIFY_MAX_INFLIGHT = SETTINGS.notifyMaxInflight.default;
export const DEFAULT_NOTIFY_MAX_CONNECTIONS = SETTINGS.notifyMaxConnections.default;
export const DEFAULT_DEAD_LETTER_MAX_BYTES = SETTINGS.notifyDeadLetterMaxBytes.default;

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
  const listen = r.value(SETTINGS.notifyListen);
  const config = {
    path: r.value(SETTINGS.notifyPath),
    token: r.value(SETTINGS.notifyToken) ?? null,
    allowedCidrs: r.value(SETTINGS.notifyAllowedCidrs) ?? null,
    requireHeader: r.value(SETTINGS.notifyRequireHeader) === 'true',
    maxBodyBytes: r.value(SETTINGS.notifyMaxBodyBytes),
    maxInflight: r.value(SETTINGS.notifyMaxInflight),
    maxConnections: r.value(SETTINGS.notifyMaxConnections),
    timeoutMs: r.value(SETTINGS.notifyTimeoutMs),
    deadLetterDir: r.raw(SETTINGS.notifyDeadLetterDir)?.trim() ?? null,
    deadLetterMaxBytes: r.value(SETTINGS.notifyDeadLetterMaxBytes),
  };
  const forwardUrl = r.value(SETTINGS.notifyForwardUrl);
  if (!r.isSet(SETTINGS.notifyListen)) return null;
  if (!r.isSet(SETTINGS.notifyForwardUrl))
    r.problems.push(
      `${SETTINGS.notifyForwardUrl.env}: required with ${SETTINGS.notifyListen.env}, where the application ` +
        `takes notifications`,
    );
  if (config.deadLetterDir) {
    const smallestCap = smallestDeadLetterCap(config.maxBodyBytes, maxHeaderBytes);
    if (config.deadLetterMaxBytes < smallestCap) {
      r.problems.push(
        `${SETTINGS.notifyDeadLetterMaxBytes.env}: must be at least ${smallestCap}, so that the dead-letter ` +
          `file can take the largest notification accepted (6 times ${SETTINGS.notifyMaxBodyBytes.env} plus ` +
          `${SETTINGS.maxHeaderBytes.env}, as JSON-escaped, plus 4096)`,
      );
    }
  }
  if (!listen || !forwardUrl) return null;
  return Object.freeze({ listen, forwardUrl, ...config });
}
