// Key choice over time: the newest key whose window holds now; another valid key for one retry.
import test from 'ava';
import type { Profile } from '../../../src/keys/key-store.js';
import { alternateKey, currentKey } from '../../../src/keys/select-key.js';
import { createAccessKey } from '../../../src/signing/access-key.js';

const at = (iso: string): number => Date.parse(iso);
const key = (id: string, notBefore: string | null, notAfter: string | null) => ({
  key: createAccessKey(id, `secret-${id}`),
  notBefore: notBefore === null ? null : at(notBefore),
  notAfter: notAfter === null ? null : at(notAfter),
});

const profile: Profile = {
  name: 'billing',
  upstream: null,
  signing: {},
  operations: null,
  keys: [
    key('OLD', null, '2026-12-08T00:00:00Z'),
    key('NEW', '2026-12-01T00:00:00Z', null),
    key('NEXT', '2027-06-01T00:00:00Z', '2027-12-01T00:00:00Z'),
  ],
};

test('before the new key starts, the old one signs', (t) => {
  t.is(currentKey(profile, at('2026-11-30T23:59:59.999Z'))?.accessKeyId, 'OLD');
});

test('at notBefore the new key signs, to the millisecond', (t) => {
  t.is(currentKey(profile, at('2026-12-01T00:00:00.000Z'))?.accessKeyId, 'NEW');
});

test('during the overlap the old key is the alternate; after notAfter there is none', (t) => {
  t.is(alternateKey(profile, at('2026-12-05T00:00:00Z'), 'NEW')?.accessKeyId, 'OLD');
  t.is(alternateKey(profile, at('2026-12-08T00:00:00Z'), 'NEW'), null);
});

test('a key is not used from notAfter on, and a future key is not used early', (t) => {
  t.is(currentKey(profile, at('2027-05-31T23:59:59Z'))?.accessKeyId, 'NEW');
  t.is(currentKey(profile, at('2027-06-01T00:00:00Z'))?.accessKeyId, 'NEXT');
  t.is(currentKey({ ...profile, keys: [key('GONE', null, '2020-01-01T00:00:00Z')] }, at('2026-01-01T00:00:00Z')), null);
});

test('keys without notBefore: the later entry is the newer', (t) => {
  const twins: Profile = { ...profile, keys: [key('FIRST', null, null), key('SECOND', null, null)] };
  t.is(currentKey(twins, Date.now())?.accessKeyId, 'SECOND');
  t.is(alternateKey(twins, Date.now(), 'SECOND')?.accessKeyId, 'FIRST');
});
