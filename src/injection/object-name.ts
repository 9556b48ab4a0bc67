// How an object is named in what the injection says of it. An object given only a generateName gets
// its name from the API server when it is created, so it is named here by the names it may get: `pi-*`
// for `generateName: pi-`.

/** The metadata's name; its generateName followed by `*` when it has none; `(no name)` without either. */
export function nameFromMetadata(metadata: unknown): string {
  const { name, generateName } = (metadata ?? {}) as { name?: unknown; generateName?: unknown };
  if (typeof name === 'string') return name;
  return typeof generateName === 'string' ? `${generateName}*` : '(no name)';
}
