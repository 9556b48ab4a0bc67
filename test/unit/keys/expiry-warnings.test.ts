// Keys near their notAfter are logged once a day, within the configured window only, and only for the profiles
// the sidecar signs with.
import test from 'ava';
import type { KeyStore } from '../../../src/keys/key-store.js';
import { warnOfExpiringKeys } from '../../../src/keys/expiry-warnings.js';
import { createAccessKey } from '../../../src/signing/access-key.js';
import { captureLogs } from '../../helpers/log-capture.js';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 22);
const BILLING = new Set(['billing']);
const store: KeyStore = {
  profiles: new Map([
    [
      'billing',
      {
        name: 'billing',
        upstream: null,
        signing: {},
        operations: null,
        keys: [
          { key: createAccessKey('AKSOON', 'expiry-secret-1'), notBefore: null, notAfter: now + 3 * DAY },
          { key: createAccessKey('AKLATER', 'expiry-secret-2'), notBefore: null, notAfter: now + 30 * DAY },
          { key: createAccessKey('AKGONE', 'expiry-secret-3'), notBefore: null, notAfter: now - DAY },
        ],
      },
    ],
  ]),
};

test('a key within the window is logged once, again a day later, and keys outside it never', (t) => {
  const logs = captureLogs();
  const state = new Map<string, number>();
  warnOfExpiringKeys(store, BILLING, now, 7, state, logs.logger);
  warnOfExpiringKeys(store, BILLING, now + DAY - 1, 7, state, logs.logger);
  warnOfExpiringKeys(store, BILLING, now + DAY, 7, state, logs.logger);
  const warnings = logs.lines().filter((l) => l.event === 'key expires soon');
  t.is(warnings.length, 2);
  t.like(warnings[0], {
    level: 'warn',
    profile: 'billing',
    accessKeyId: 'AKSOON',
    daysLeft: 3,
    notAfter: new Date(now + 3 * DAY).toISOString(),
  });
  t.false(logs.text().includes('expiry-secret'));
});

test('a longer window includes later keys', (t) => {
  const logs = captureLogs();
  warnOfExpiringKeys(store, BILLING, now, 31, new Map(), logs.logger);
  t.deepEqual(
    logs.lines().map((l) => l.accessKeyId),
    ['AKSOON', 'AKLATER'],
  );
});

test("the keys of a profile the sidecar does not sign with are another application's: never logged", (t) => {
  const logs = captureLogs();
  warnOfExpiringKeys(store, new Set(['shop']), now, 31, new Map(), logs.logger);
  t.is(logs.text(), '');
});
