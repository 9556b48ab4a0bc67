// The kinds of value a setting takes, each with its reader and what it allows in words, shared by the
// features' setting tables so that the same kind reads and reads out the same everywhere.
import { ok, parseInteger, parseListen, parseOneOf, type Parsed } from './parsers.js';
import { parseResourceQuantity } from './quantity-parsers.js';
import { parseQuantity } from './quantity.js';

export const MiB = 1024 * 1024;

export const text = (allowed: string) => ({ parse: (raw: string): Parsed<string> => ok(raw.trim()), allowed });

export const integer = (min: number, max: number) => ({
  parse: parseInteger(min, max),
  allowed: `a whole number from ${min} to ${max}`,
});

export const oneOf = <T extends string>(values: readonly T[]) => ({
  parse: parseOneOf(values),
  allowed: values.join(', '),
});

/** A Kubernetes resource quantity, as text (what the pod spec takes). */
export const quantity = (allowed: string, resource: 'cpu' | 'memory', mayBeEmpty = false, minBytes = 0) => ({
  parse: (raw: string): Parsed<string> => {
    const text = raw.trim();
    if (text === '' && mayBeEmpty) return ok('');
    const parsed = parseResourceQuantity(resource)(text);
    return parsed.ok && (parseQuantity(parsed.value) ?? 0) < minBytes ? { ok: false, allowed } : parsed;
  },
  allowed,
});

export const listen = { parse: parseListen, allowed: 'HOST:PORT, [IPv6]:PORT, or :PORT for every address' };
