// A resource quantity setting or annotation read as text the pod spec takes: a valid quantity, and for
// memory one with a unit people read (bytes are allowed, but 96 would be 96 bytes).
import { fail, ok, type Parsed } from './parsers.js';
import { parseQuantity } from './quantity.js';

export function parseResourceQuantity(resource: 'cpu' | 'memory'): (raw: string) => Parsed<string> {
  const allowed = resource === 'cpu' ? 'a CPU quantity (50m, 0.1, 1)' : 'a memory quantity (96Mi, 128Mi, 1Gi, 200M)';
  return (raw) => {
    const text = raw.trim();
    const value = parseQuantity(text);
    return value !== null && value > 0 ? ok(text) : fail(allowed);
  };
}
