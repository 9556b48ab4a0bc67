// How an object is named in what the injection says of it. An object given only a generateName gets
// its name from the API server when it is created, so it is named here by the names it may get: `pi-*`
// for `generateName: pi-`. A name longer than any Kubernetes name is cut: it comes from whoever wrote the
// object, and every message and log line that names the object repeats it.

/** The longest name Kubernetes gives an object (a DNS subdomain). */
const MAX_NAME = 253;

const bounded = (name: string): string => (name.length <= MAX_NAME ? name : `${name.slice(0, MAX_NAME)}…`);

/** The metadata's name; its generateName followed by `*` when it has none; `(no name)` without either. */
export function nameFromMetadata(metadata: unknown): string {
  const { name, generateName } = (metadata ?? {}) as { name?: unknown; generateName?: unknown };
  if (typeof name === 'string') return bounded(name);
  return typeof generateName === 'string' ? `${bounded(generateName)}*` : '(no name)';
}
