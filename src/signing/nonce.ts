// X-SFD-Nonce source (spec, Limits: 5 to 18 digits; field-notes §2: digits only, no leading zero,
// fresh for every attempt). Uniqueness within a process is by construction, not by luck.
import { randomInt } from 'node:crypto';

export type NonceSource = () => string;

const LOWEST = 100_000_000_000_000_000n; // smallest 18-digit number
const SPAN = 900_000_000_000_000_000n; // count of 18-digit numbers
const MAX_STEP = 1_000_000;

export type RandomInt = (minInclusive: number, maxExclusive: number) => number;

/**
 * Nonces are 18-digit numbers that strictly increase by a random step, from a random start: never
 * repeated in one process (a wrap would need about 10^12 nonces), never predictable to the next value,
 * always 18 digits with a non-zero first digit.
 */
export function createNonceSource(random: RandomInt = randomInt): NonceSource {
  const startHigh = BigInt(random(0, 450_000_000)) * 1_000_000_000n;
  const startLow = BigInt(random(0, 1_000_000_000));
  let offset = startHigh + startLow; // within the lower half of the span, leaving room to grow
  return (): string => {
    offset = (offset + BigInt(random(1, MAX_STEP))) % SPAN;
    return (LOWEST + offset).toString();
  };
}

/** True when the value is a nonce the gateway accepts: 5 to 18 digits, no leading zero. */
export function isValidNonce(value: string): boolean {
  return /^[1-9][0-9]{4,17}$/.test(value);
}
