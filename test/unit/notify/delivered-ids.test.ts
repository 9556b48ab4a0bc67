// The delivered ids: a repeat is recognised whatever the id's length, the oldest ids are forgotten
// first, and memory stays bounded however long the ids are.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import test from 'ava';
import { createDeliveredIds } from '../../../src/notify/delivered-ids.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

test('a repeated id is recognised, short or long, and ids that differ are not confused', (t) => {
  const ids = createDeliveredIds(10);
  const long = 'x'.repeat(5000);
  ids.add('evt-1');
  ids.add(long);
  t.true(ids.has('evt-1'));
  t.true(ids.has('x'.repeat(5000)));
  t.false(ids.has(`${long}y`));
  t.false(ids.has('evt-2'));
});

test('beyond the capacity the oldest id is forgotten first; a repeat counts as recent', (t) => {
  const ids = createDeliveredIds(2);
  ids.add('a');
  ids.add('b');
  ids.add('a');
  ids.add('c');
  t.true(ids.has('a'));
  t.false(ids.has('b'));
  t.true(ids.has('c'));
});

/** A 12,000-character id of its own, flat as JSON.parse makes it (padEnd would share its filler). */
const longId = (i: number): string => {
  const bytes = Buffer.alloc(12_000, 'z');
  bytes.write(`${i}-`);
  return bytes.toString('latin1');
};

test('10,000 ids of 12,000 characters hold a few MB, not the 120 MB of their text', (t) => {
  const ids = createDeliveredIds(10_000);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 10_000; i += 1) ids.add(longId(i));
  gc();
  const grownMb = (process.memoryUsage().heapUsed - before) / 1e6;
  t.true(grownMb < 20, `the heap grew ${grownMb.toFixed(1)} MB`);
  t.true(ids.has(longId(9_999)));
});
