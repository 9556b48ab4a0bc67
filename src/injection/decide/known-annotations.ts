// The annotations under sfd-sidecar.io/ that mean something: the options' overrides, the inject flag
// (which `inject` and the Kustomize component also read as an annotation), and what injection writes.
// Any other is a mistake worth naming: a typo would otherwise be ignored without a word.
import { INJECT_LABEL, PREFIX, WRITTEN } from '../contract.js';
import { annotationOf, OPTIONS, type InjectionOptions } from '../options.js';

export const KNOWN_ANNOTATIONS: readonly string[] = [
  INJECT_LABEL,
  ...Object.keys(OPTIONS).flatMap((key) => annotationOf(key as keyof InjectionOptions) ?? []),
  ...Object.values(WRITTEN),
];

const KNOWN = new Set(KNOWN_ANNOTATIONS);

/** The annotations under the prefix that mean nothing here, in the order found. */
export function unknownAnnotations(annotations: Readonly<Record<string, string>>): string[] {
  return Object.keys(annotations).filter((name) => name.startsWith(PREFIX) && !KNOWN.has(name));
}
