// The JSON patch between two documents, checked by fast-json-patch applying it: whatever the lists and
// objects, the patch turns the first into the second; and an entry added to or taken from a list of
// named entries is one `add` or `remove`, never a rewrite of the entries after it (which would move a
// YAML manifest's comments to the wrong entry).
import test from 'ava';
import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import { patchBetween } from '../../src/injection/json-patch.js';

/** Whether a `__proto__` member appears anywhere in the value. */
const hasProtoKey = (value: unknown): boolean =>
  value !== null &&
  typeof value === 'object' &&
  (Object.hasOwn(value, '__proto__') || Object.values(value).some(hasProtoKey));

// Documents without a `__proto__` member: no Kubernetes object has one (its fields are the schema's, and
// label and annotation keys cannot start with `_`), and fast-json-patch, the independent applier here,
// either refuses a patch that names one or, told not to, sets the prototype instead of the member.
const json = fc.jsonValue({ maxDepth: 4 }).filter((value) => !hasProtoKey(value));

test('applied by fast-json-patch, the patch turns any document into any other', (t) => {
  fc.assert(
    fc.property(json, json, (before, after) => {
      const patch = patchBetween(before, after);
      const result = fastJsonPatch.applyPatch(structuredClone(before), patch, true, false).newDocument;
      t.deepEqual(result, after);
    }),
    { numRuns: 500 },
  );
});

const named = fc.uniqueArray(
  fc.record({ name: fc.string({ minLength: 1, maxLength: 6 }), image: fc.string({ maxLength: 4 }) }),
  { selector: (entry) => entry.name, maxLength: 8 },
);

test('an entry put anywhere in a list of named entries is one add; one taken out is one remove', (t) => {
  fc.assert(
    fc.property(named, fc.nat(), (list, at) => {
      const entry = { name: `new-${list.length}-${'x'.repeat(7)}`, image: 'i' };
      const index = list.length === 0 ? 0 : at % (list.length + 1);
      const grown = [...list.slice(0, index), entry, ...list.slice(index)];
      t.deepEqual(patchBetween({ items: list }, { items: grown }), [
        { op: 'add', path: `/items/${index}`, value: entry },
      ]);
      t.deepEqual(patchBetween({ items: grown }, { items: list }), [{ op: 'remove', path: `/items/${index}` }]);
    }),
    { numRuns: 300 },
  );
});
