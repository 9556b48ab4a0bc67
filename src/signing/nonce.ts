// X-SFD-Nonce source: 5 to 18 digits, no leading zero, fresh for every attempt. Uniqueness within a process is by
// construction, not by luck.
import { randomInt } from 'node:crypto';

export type NonceSource = () => string;

const MAX_STEP = 1_000_000;
/** An 18-digit nonce is 10^17 + offset, offset = high * 10^9 + low (numbers, not BigInt: cheaper per request). */
const LOW_SPAN = 1_000_000_000;
const HIGH_SPAN = 900_000_000;
const HIGH_BASE = 100_000_000; // 10^17 / 10^9: the nonce's first nine digits are HIGH_BASE + high

export type RandomInt = (minInclusive: number, maxExclusive: number) => number;

/**
 * Nonces are 18-digit numbers that strictly increase by a random step, from a random start: never
 * repeated in one process (a wrap would need about 10^12 nonces), never predictable to the next value,
 * always 18 digits with a non-zero first digit.
 */
export function createNonceSource(random: RandomInt = randomInt): NonceSource {
  let high = random(0, HIGH_SPAN / 2); // within the lower half of the span, leaving room to grow
  let low = random(0, LOW_SPAN);
  return (): string => {
    low += random(1, MAX_STEP);
    if (low >= LOW_SPAN) {
      low -= LOW_SPAN;
      high = (high + 1) % HIGH_SPAN;
    }
    // The last nine digits with leading zeros: LOW_SPAN + low has ten digits, the first one dropped.
    return String(HIGH_BASE + high) + String(LOW_SPAN + low).slice(1);
  };
}

/** True when the value is a nonce the gateway accepts: 5 to 18 digits, no leading zero. */
export function isValidNonce(value: string): boolean {
  return /^[1-9][0-9]{4,17}$/.test(value);
}
