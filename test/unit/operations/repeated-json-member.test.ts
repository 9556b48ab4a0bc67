// A JSON setting that names a member twice is refused: JSON.parse would keep the last one silently.
import test from 'ava';
import fc from 'fast-check';
import { parseOperationsSetting } from '../../../src/operations/operations-setting.js';
import { repeatedJsonMember } from '../../../src/text/repeated-json-member.js';

test('a name repeated in one object is found, however it is spelt or nested', (t) => {
  const cases: [string, string | null][] = [
    ['{"billing":{"operations":["getCustomer"]},"billing":"*"}', 'billing'],
    ['{"billing":"*","\\u0062illing":"*"}', 'billing'],
    ['{"a":[{"x":1},{"x":2,"x":3}]}', 'x'],
    ['{"a":{"b":1},"c":{"b":2}}', null],
    ['[{"a":1},{"a":2}]', null],
    ['{"a":"{\\"a\\":1,","b":"\\"a\\""}', null],
    ['{"a\\"":1,"a":2}', null],
    ['{"":1,"":2}', ''],
    [' { "a" : [ 1 , "a" , { } ] , "a" : 0 } ', 'a'],
  ];
  for (const [text, repeated] of cases) t.is(repeatedJsonMember(text), repeated, text);
});

test('JSON.stringify never repeats a name; a member written twice into any object is found', (t) => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => repeatedJsonMember(JSON.stringify(value)) === null),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(
      fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }),
      fc.nat(),
      fc.jsonValue(),
      (object, pick, value) => {
        const names = Object.keys(object);
        const name = names[pick % names.length]!;
        const text = `${JSON.stringify(object).slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(value)}}`;
        return repeatedJsonMember(text) === name;
      },
    ),
    { numRuns: 300 },
  );
  t.pass();
});

test('SFD_OPERATIONS naming a profile twice is refused, whatever a later member says', (t) => {
  const limited = '{"billing":{"operations":["getCustomer"]}}';
  t.true(parseOperationsSetting(limited).ok);
  const widened = '{"billing":{"operations":["getCustomer"]},"billing":"*"}';
  t.false(parseOperationsSetting(widened).ok);
});
