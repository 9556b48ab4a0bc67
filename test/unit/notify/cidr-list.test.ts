// SFD_NOTIFY_ALLOWED_CIDRS: which source addresses may post notifications.
import test from 'ava';
import { parseCidrList } from '../../../src/notify/settings/cidr-list.js';

test('IPv4 ranges and single addresses; the rest of the address space is refused', (t) => {
  const { cidrs, filter } = parseCidrList(' 203.0.113.0/24 , 192.0.2.7,, ');
  t.deepEqual(cidrs, ['203.0.113.0/24', '192.0.2.7']);
  t.true(filter('203.0.113.1'));
  t.true(filter('203.0.113.255'));
  t.false(filter('203.0.114.1'));
  t.true(filter('192.0.2.7'));
  t.false(filter('192.0.2.8'));
});

test('an IPv4 caller seen by a dual-stack listener (::ffff:a.b.c.d) is matched against the IPv4 ranges', (t) => {
  const { filter } = parseCidrList('10.0.0.0/8');
  t.true(filter('::ffff:10.1.2.3'));
  t.true(filter('::FFFF:10.1.2.3'));
  t.false(filter('::ffff:11.1.2.3'));
});

test('IPv6 ranges', (t) => {
  const { filter } = parseCidrList('2001:db8::/32');
  t.true(filter('2001:db8::1'));
  t.true(filter('2001:db8:ffff::1'));
  t.false(filter('2001:db9::1'));
  t.false(filter('10.0.0.1'));
});

test('a connection without a known address is refused', (t) => {
  const { filter } = parseCidrList('0.0.0.0/0');
  t.false(filter(undefined));
  t.false(filter(''));
  t.true(filter('198.51.100.1'));
});

for (const bad of [
  '10.0.0.0/33',
  '2001:db8::/129',
  '10.0.0.0/x',
  '10.0.0/8',
  'example.com',
  '10.0.0.0/-1',
  '10.0.0.0/',
  '10.0.0.0/8/9',
]) {
  test(`"${bad}" is refused, named in the error`, (t) => {
    const error = t.throws(() => parseCidrList(`192.0.2.0/24, ${bad}`));
    t.is(error?.message, bad);
  });
}
