// The notification relay's settings (issue #8): off unless SFD_NOTIFY_LISTEN is set.
import { parseCidrList } from '../notify/source-filter.js';
import type { NotifyConfig } from './load-config.js';
import { fail, ok, parseInteger, parseListen, parseOneOf, type Parsed } from './parsers.js';
import type { SettingReader } from './setting-reader.js';
import { SETTINGS } from './settings.js';

/**
 * Each notification in hand holds its body and its parsed JSON in memory while the application takes
 * its time (up to SFD_NOTIFY_TIMEOUT_MS): about 2,000 of 60 KB at once ran V8's heap out (128 MiB, the
 * image's cap) and ended the process. 64 take a few MB, and more than the application's 16
 * connections can carry at once.
 */
export const DEFAULT_NOTIFY_MAX_INFLIGHT = 64;

/** Connections the relay holds: a few per sender, with room for a proxy or load balancer in front. */
export const DEFAULT_NOTIFY_MAX_CONNECTIONS = 256;

/** 64 MiB: tens of thousands of invalid events, each kept whole. */
export const DEFAULT_DEAD_LETTER_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The smallest dead-letter cap that always takes the largest notification the relay accepts: a letter
 * holds its body and head JSON-escaped, up to 6 bytes for each byte received (`\u0000`), and its own
 * fields (time, id, the problems found: a few hundred bytes, 4 KiB allowed). A smaller cap could
 * refuse that notification every time it came.
 */
export function smallestDeadLetterCap(maxBodyBytes: number, maxHeaderBytes: number): number {
  return 6 * (maxBodyBytes + maxHeaderBytes) + 4096;
}

const parsePath = (raw: string): Parsed<string> => {
  const text = raw.trim().replace(/\/+$/, '');
  return /^\/[A-Za-z0-9._~\-/]*$/.test(text) && text !== '' ? ok(text) : fail('a path starting with /, e.g. /notifications');
};

const parseForwardUrl = (raw: string): Parsed<URL> => {
  try {
    const url = new URL(raw.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return ok(url);
  } catch {
    // reported below
  }
  return fail('an http:// or https:// URL where the application listens, e.g. http://127.0.0.1:3000/hooks/sfd');
};

const parseToken = (raw: string): Parsed<string> =>
  /^[A-Za-z0-9._~-]{16,256}$/.test(raw.trim()) ? ok(raw.trim()) : fail('16 to 256 URL-safe characters (letters, digits, . _ ~ -)');

const parseCidrs = (raw: string): Parsed<string> => {
  try {
    parseCidrList(raw);
    return ok(raw);
  } catch (error) {
    return fail(`a comma-separated list of addresses or CIDR ranges, e.g. 203.0.113.0/24, 2001:db8::/32 (bad entry: ${(error as Error).message})`);
  }
};

export function readNotifyConfig(r: SettingReader): NotifyConfig | null {
  const listen = r.read('notifyListen', parseListen);
  const path = r.read('notifyPath', parsePath, '/notifications');
  const token = r.read('notifyToken', parseToken) ?? null;
  const allowedCidrs = r.read('notifyAllowedCidrs', parseCidrs) ?? null;
  const requireHeader = r.read('notifyRequireHeader', parseOneOf(['true', 'false'] as const), 'true');
  const maxBodyBytes = r.read('notifyMaxBodyBytes', parseInteger(1, 16 * 1024 * 1024), '65536');
  const maxInflight = r.read('notifyMaxInflight', parseInteger(1, 100_000), String(DEFAULT_NOTIFY_MAX_INFLIGHT));
  const maxConnections = r.read('notifyMaxConnections', parseInteger(1, 1_000_000), String(DEFAULT_NOTIFY_MAX_CONNECTIONS));
  const timeoutMs = r.read('notifyTimeoutMs', parseInteger(1, 600_000), '10000');
  const forwardUrl = r.read('notifyForwardUrl', parseForwardUrl);
  const deadLetterDir = r.raw('notifyDeadLetterDir')?.trim() ?? null;
  const deadLetterMaxBytes = r.read('notifyDeadLetterMaxBytes', parseInteger(1024, 2 ** 40), String(DEFAULT_DEAD_LETTER_MAX_BYTES));
  if (r.raw('notifyListen') === undefined) return null;
  if (r.raw('notifyForwardUrl') === undefined) r.problems.push(`${SETTINGS.notifyForwardUrl.env}: required with ${SETTINGS.notifyListen.env}, where the application takes notifications`);
  if (!listen || !path || !forwardUrl || !requireHeader || !maxBodyBytes || !maxInflight || !maxConnections || !timeoutMs || !deadLetterMaxBytes) return null;
  return Object.freeze({
    listen,
    path,
    forwardUrl,
    token,
    allowedCidrs,
    requireHeader: requireHeader === 'true',
    maxBodyBytes,
    maxInflight,
    maxConnections,
    timeoutMs,
    deadLetterDir,
    deadLetterMaxBytes,
  });
}
