// The part of Kubernetes' OpenAPI v3 document for core/v1 that the admission policy's type checks read:
// the definitions reachable from a Pod (what `object` and `oldObject` are), a ConfigMap (a policy's
// params) and a Namespace, kept verbatim so a test can compare them with the source document.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../repo-root.js';

export type OpenApiSchema = Readonly<Record<string, unknown>>;

/** The fixture file: where it came from, and the definitions it keeps. */
export interface OpenApiSubset {
  readonly source: Readonly<Record<string, string>>;
  readonly roots: readonly string[];
  readonly schemas: Readonly<Record<string, OpenApiSchema>>;
}

export const SUBSET_ROOTS = ['io.k8s.api.core.v1.Pod', 'io.k8s.api.core.v1.ConfigMap', 'io.k8s.api.core.v1.Namespace'];
export const SUBSET_PATH = join(REPO_ROOT, 'test/fixtures/kubernetes-openapi/core-v1-pod-subset.json');
const REF_PREFIX = '#/components/schemas/';

/** The definition names a schema refers to, directly or within its properties, items and combinators. */
export function listReferences(schema: unknown): string[] {
  const found: string[] = [];
  JSON.stringify(schema, (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX))
      found.push(value.slice(REF_PREFIX.length));
    return value;
  });
  return found;
}

/** Every definition reachable from the roots, sorted by name, each exactly as the document has it. */
export function extractSubset(
  schemas: Readonly<Record<string, OpenApiSchema>>,
  roots: readonly string[],
): Record<string, OpenApiSchema> {
  const reached = new Set<string>();
  const pending = [...roots];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (reached.has(name)) continue;
    const schema = schemas[name];
    if (!schema) throw new Error(`the document has no definition ${name}`);
    reached.add(name);
    pending.push(...listReferences(schema));
  }
  return Object.fromEntries([...reached].sort().map((name) => [name, schemas[name]!]));
}

/** Reads the committed fixture. */
export function readSubset(): OpenApiSubset {
  return JSON.parse(readFileSync(SUBSET_PATH, 'utf8')) as OpenApiSubset;
}
