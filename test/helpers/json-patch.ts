// Applies the webhook's and `inject`'s JSON patches in tests, with fast-json-patch as the independent
// applier: the runtime only computes patches, so the library is a devDependency.
import fastJsonPatch from 'fast-json-patch';
import type { PatchOperation } from '../../src/injection/json-patch.js';

/** Applies a patch to a copy of the document, validating each operation. */
export function applyPatch<T extends object>(document: T, patch: readonly PatchOperation[]): T {
  return fastJsonPatch.applyPatch(structuredClone(document), [...patch], true, false).newDocument;
}
