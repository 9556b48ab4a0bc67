// A JSON value's text written without recursion: the same text JSON.stringify writes, for any value
// JSON.parse makes, and for values nested far deeper than JSON.stringify can go.
import test from 'ava';
import fc from 'fast-check';
import { jsonText } from '../../src/text/json-text.js';

/** The value under `levels` lists and objects, deep enough for the text to be written without recursion. */
function nested(value: unknown, levels: number): unknown {
  let wrapped = value;
  for (let level = 0; level < levels; level += 1) wrapped = level % 2 === 0 ? [wrapped] : { level: wrapped };
  return wrapped;
}

test('the text is what JSON.stringify writes', (t) => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.constantFrom(0, 300), (value, levels) => {
      t.is(jsonText(nested(value, levels)), JSON.stringify(nested(value, levels)));
    }),
    { numRuns: 1000 },
  );
  const odd = { a: undefined, b: [undefined, () => 1, Infinity, -0, NaN], c: 'x\ud800"\\', ['__proto__']: 1 };
  t.is(jsonText(JSON.parse('{"__proto__":{"x":1e400}}')), '{"__proto__":{"x":null}}');
  t.is(jsonText(odd), JSON.stringify(odd));
  t.is(jsonText(nested(odd, 300)), JSON.stringify(nested(odd, 300)));
});

test('a value nested a hundred thousand levels is written back as it was read', (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 5_000, max: 100_000 }),
      fc.constantFrom(['[', ']'], ['{"a":', '}'], ['{"":[', ']}']),
      (levels, [opening, closing]) => {
        const text = `${opening.repeat(levels)}1${closing.repeat(levels)}`;
        t.is(jsonText(JSON.parse(text)), text);
      },
    ),
    { numRuns: 20 },
  );
});
