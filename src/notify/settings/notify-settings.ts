// The notification relay's settings, beside its code: off unless SFD_NOTIFY_LISTEN is set. The registry
// (src/settings/) places them in the one list help, docs and the chart derive from.
import { defineSettings, SERVE_COMMANDS, type SettingDefinition } from '../../config/setting-definition.js';
import { integer, listen, MiB, oneOf, text } from '../../config/setting-kinds.js';
import type { ListenAddress } from '../../config/parsers.js';
import { parseCidrs, parseForwardUrl, parseNotifyPath, parseNotifyToken } from './notify-parsers.js';

export const NOTIFY_SETTINGS = defineSettings({
  notifyListen: {
    env: 'SFD_NOTIFY_LISTEN',
    description: 'the notification relay listener, e.g. :8081; off when unset',
    ...listen,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<ListenAddress>,
  notifyPath: {
    env: 'SFD_NOTIFY_PATH',
    description: 'path the service posts notifications to',
    parse: parseNotifyPath,
    allowed: 'a path starting with /',
    default: '/notifications',
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<string>,
  notifyForwardUrl: {
    env: 'SFD_NOTIFY_FORWARD_URL',
    description:
      'where the application takes notifications, e.g. http://127.0.0.1:3000/hooks/sfd; required with ' +
      'SFD_NOTIFY_LISTEN',
    parse: parseForwardUrl,
    allowed: 'an http:// or https:// URL',
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<URL>,
  notifyToken: {
    env: 'SFD_NOTIFY_TOKEN',
    description: 'when set, the callback path must end with /TOKEN, compared in constant time',
    parse: parseNotifyToken,
    allowed: '16 to 256 URL-safe characters',
    secret: true,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<string>,
  notifyAllowedCidrs: {
    env: 'SFD_NOTIFY_ALLOWED_CIDRS',
    description: 'source ranges allowed to post notifications; any when unset',
    parse: parseCidrs,
    allowed: 'comma-separated addresses or CIDR ranges, IPv4 or IPv6',
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<string>,
  notifyRequireHeader: {
    env: 'SFD_NOTIFY_REQUIRE_HEADER',
    description: 'require X-SFD-Notification-From: LLS (or X-Notification-from) on notifications',
    ...oneOf(['true', 'false'] as const),
    default: 'true',
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<'true' | 'false'>,
  notifyMaxBodyBytes: {
    env: 'SFD_NOTIFY_MAX_BODY_BYTES',
    description: 'largest notification accepted (413 beyond)',
    ...integer(1, 16 * MiB),
    default: 65_536,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
  notifyMaxInflight: {
    env: 'SFD_NOTIFY_MAX_INFLIGHT',
    description:
      'notifications in hand at once (arrived, being checked or delivered); beyond it 503 Sidecar.Overloaded, ' +
      'before the body is read when the relay is already full, so that the service sends them again',
    ...integer(1, 100_000),
    default: 64,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
  notifyMaxConnections: {
    env: 'SFD_NOTIFY_MAX_CONNECTIONS',
    description:
      'most connections the notification relay holds, made room for as SFD_MAX_CONNECTIONS says: a source ' +
      'address alone (an ingress) may hold them all',
    ...integer(1, 1_000_000),
    default: 256,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
  notifyTimeoutMs: {
    env: 'SFD_NOTIFY_TIMEOUT_MS',
    description: 'time the application has to accept a notification (503 to the service beyond)',
    ...integer(1, 600_000),
    default: 10_000,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
  notifyDeadLetterDir: {
    env: 'SFD_NOTIFY_DEAD_LETTER_DIR',
    description:
      'directory where invalid notifications are appended to notifications-dead-letter.jsonl; must exist and ' +
      'be writable',
    ...text('a directory path'),
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<string>,
  notifyDeadLetterMaxBytes: {
    env: 'SFD_NOTIFY_DEAD_LETTER_MAX_BYTES',
    description:
      'largest size of the dead-letter file; at least 6 times (SFD_NOTIFY_MAX_BODY_BYTES + ' +
      'SFD_MAX_HEADER_BYTES) + 4096; an invalid notification that would pass it is answered 503',
    ...integer(1024, 2 ** 40),
    default: 64 * MiB,
    commands: SERVE_COMMANDS,
  } satisfies SettingDefinition<number>,
});
