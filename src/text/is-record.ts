// A parsed JSON or YAML value that is a mapping: an object, not null and not a list.
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
