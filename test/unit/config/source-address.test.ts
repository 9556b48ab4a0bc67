// A caller is one source whichever way its address is spelled: a listener bound to `::` sees an IPv4
// caller as an IPv4-mapped IPv6 address.
import test from 'ava';
import { sourceAddress } from '../../../src/config/source-address.js';

test('an IPv4-mapped IPv6 address is the IPv4 address it maps', (t) => {
  t.is(sourceAddress('::ffff:10.0.0.1'), '10.0.0.1');
  t.is(sourceAddress('::FFFF:10.0.0.1'), '10.0.0.1');
  t.is(sourceAddress('10.0.0.1'), '10.0.0.1');
});

test('other IPv6 addresses are themselves, and an unknown address is one caller of its own', (t) => {
  t.is(sourceAddress('fd00::ffff:10.0.0.1'), 'fd00::ffff:10.0.0.1');
  t.is(sourceAddress('2001:db8::1'), '2001:db8::1');
  t.is(sourceAddress(undefined), '');
});
