// The JSON patch (RFC 6902) from one document to another: the only module that imports fast-json-patch.
import fastJsonPatch, { type Operation } from 'fast-json-patch';

export type PatchOperation = Operation;

export function patchBetween(before: object, after: object): PatchOperation[] {
  return fastJsonPatch.compare(before, after);
}

/** Applies a patch to a copy of the document (tests, and the reader who wants to check one). */
export function applyPatch<T extends object>(document: T, patch: readonly PatchOperation[]): T {
  return fastJsonPatch.applyPatch(structuredClone(document), [...patch], true, false).newDocument;
}
