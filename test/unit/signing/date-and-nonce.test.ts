// X-SFD-Date in UTC in the gateway's format; nonces of 5-18 digits, no leading zero, never repeated.
import test from 'ava';
import { createCachedDateFormatter, formatSfdDate } from '../../../src/signing/format-date.js';
import { createNonceSource, isValidNonce } from '../../../src/signing/nonce.js';

test('the date is UTC yyyyMMddTHHmmssZ with zero padding', (t) => {
  t.is(formatSfdDate(Date.UTC(2018, 2, 28, 17, 30, 13)), '20180328T173013Z');
  t.is(formatSfdDate(Date.UTC(2024, 0, 2, 3, 4, 5, 999)), '20240102T030405Z');
});

test('the cached formatter changes with the second and not within it', (t) => {
  const format = createCachedDateFormatter();
  const base = Date.UTC(2030, 11, 31, 23, 59, 59);
  t.is(format(base), '20301231T235959Z');
  t.is(format(base + 999), '20301231T235959Z');
  t.is(format(base + 1000), '20310101T000000Z');
});

test('nonces are 18 digits without a leading zero and never repeat in a run of 200000', (t) => {
  const next = createNonceSource();
  const seen = new Set<string>();
  for (let i = 0; i < 200_000; i += 1) {
    const nonce = next();
    if (!isValidNonce(nonce) || nonce.length !== 18 || seen.has(nonce)) t.fail(`bad or repeated nonce ${nonce}`);
    seen.add(nonce);
  }
  t.is(seen.size, 200_000);
});

test('nonces stay valid even from the extremes of the random source', (t) => {
  const low = createNonceSource((min) => min);
  const high = createNonceSource((_min, max) => max - 1);
  for (let i = 0; i < 1000; i += 1) {
    t.true(isValidNonce(low()));
    t.true(isValidNonce(high()));
  }
});

test('each nonce is numerically above the one before, across the carry into the high digits', (t) => {
  // The largest step every time: the low nine digits carry over about every 1000 nonces.
  const next = createNonceSource((_min, max) => max - 1);
  let previous = BigInt(next());
  for (let i = 0; i < 5000; i += 1) {
    const nonce = next();
    t.is(nonce.length, 18);
    const value = BigInt(nonce);
    if (value <= previous) t.fail(`${nonce} does not follow ${previous}`);
    previous = value;
  }
  t.pass();
});

test('a carry from the low nine digits into the high nine keeps the nonce exact and 18 digits long', (t) => {
  let calls = 0;
  const next = createNonceSource((_min, max) => {
    calls += 1;
    if (calls === 2) return 999_999_999; // the starting low digits: one step below the carry
    return max - 1; // the starting high digits 449_999_999, then the largest step 999_999
  });
  // 10^17 + 449_999_999 * 10^9 + 999_999_999 + 999_999
  t.is(next(), '550000000000999998');
});

test("nonce validation follows the gateway's limits", (t) => {
  t.true(isValidNonce('12345'));
  t.true(isValidNonce('123456789012345678'));
  t.false(isValidNonce('1234'));
  t.false(isValidNonce('1234567890123456789'));
  t.false(isValidNonce('012345'));
  t.false(isValidNonce('12a45'));
});
