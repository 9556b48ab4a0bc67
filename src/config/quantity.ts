// Kubernetes resource quantities (`500m`, `0.5`, `96Mi`, `1G`, `1e3`) as numbers, and back for messages.

const SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

// The digits after the point are matched only after the point itself, so no two runs of digits meet:
// a quantity from a manifest is matched in time linear in its length, however long.
const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([eE][+-]?\d+)|(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei))?$/;

/** The quantity's value in base units (cores, bytes), or null when it is not a quantity. */
export function parseQuantity(raw: string | number): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  const match = QUANTITY.exec(raw.trim());
  if (!match) return null;
  const base = Number(match[1]);
  if (match[2]) return base * 10 ** Number(match[2].slice(1));
  return base * SUFFIX[match[3] ?? '']!;
}

/** A value in the units people read: cores as millicores, bytes as MiB. */
export function formatQuantity(resource: string, value: number): string {
  if (resource === 'cpu') return `${Math.round(value * 1000)}m`;
  if (resource === 'memory') return `${Math.round((value / 2 ** 20) * 10) / 10}Mi`;
  return String(value);
}
