// The relay's settings as a test starts it: the defaults a deployment gets, forwarding to the test's
// application, on a free loopback port; each test overrides what it is about.
import {
  DEFAULT_DEAD_LETTER_MAX_BYTES,
  DEFAULT_NOTIFY_MAX_CONNECTIONS,
  DEFAULT_NOTIFY_MAX_INFLIGHT,
  type NotifyConfig,
} from '../../src/notify/notify-config.js';

export function relayConfig(appUrl: string, overrides: Partial<NotifyConfig> = {}): NotifyConfig {
  return {
    listen: { host: '127.0.0.1', port: 0 },
    path: '/notifications',
    forwardUrl: new URL(appUrl),
    token: null,
    allowedCidrs: null,
    requireHeader: true,
    maxBodyBytes: 65536,
    maxInflight: DEFAULT_NOTIFY_MAX_INFLIGHT,
    maxConnections: DEFAULT_NOTIFY_MAX_CONNECTIONS,
    timeoutMs: 2000,
    deadLetterDir: null,
    deadLetterMaxBytes: DEFAULT_DEAD_LETTER_MAX_BYTES,
    ...overrides,
  };
}
