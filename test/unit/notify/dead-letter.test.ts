// The dead-letter file: one JSON line per invalid notification, in order, never past its cap, and a
// failed append (a full disk, a path taken by a directory, the cap) does not stop the ones after it
// once the cause is gone.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createDeadLetterWriter, DEAD_LETTER_FILE, type DeadLetter } from '../../../src/notify/dead-letter.js';

const letter = (id: string): DeadLetter => ({
  receivedAt: '2026-11-23T12:00:00.000Z',
  id,
  problems: ['data.status: missing'],
  headers: { 'content-type': 'application/json' },
  body: `{"id":"${id}"}`,
});

test('letters written at once land one per line, in order, in a file only the owner can read', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-dl-'));
  const write = createDeadLetterWriter(dir, 1 << 20);
  await Promise.all(['a', 'b', 'c'].map((id) => write(letter(id))));
  const lines = readFileSync(join(dir, DEAD_LETTER_FILE), 'utf8').trimEnd().split('\n');
  t.deepEqual(
    lines.map((line) => (JSON.parse(line) as DeadLetter).id),
    ['a', 'b', 'c'],
  );
  t.is(statSync(join(dir, DEAD_LETTER_FILE)).mode & 0o777, 0o600);
});

test('after a failed append, the next letters are written once the cause is gone', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-dl-'));
  const write = createDeadLetterWriter(dir, 1 << 20);
  mkdirSync(join(dir, DEAD_LETTER_FILE)); // the path is taken: appends fail with EISDIR
  await t.throwsAsync(write(letter('lost')), { code: 'EISDIR' });
  rmdirSync(join(dir, DEAD_LETTER_FILE));
  await write(letter('kept'));
  t.deepEqual(readFileSync(join(dir, DEAD_LETTER_FILE), 'utf8'), `${JSON.stringify(letter('kept'))}\n`);
});

test(
  'a letter that would pass the cap is refused and not written; once the file is moved away, letters are kept ' +
    'again',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sfd-dl-'));
    const path = join(dir, DEAD_LETTER_FILE);
    const lineBytes = Buffer.byteLength(`${JSON.stringify(letter('a'))}\n`);
    const write = createDeadLetterWriter(dir, 2 * lineBytes);
    await write(letter('a'));
    await write(letter('b'));
    await t.throwsAsync(write(letter('c')), {
      code: 'DEAD_LETTER_FULL',
      message:
        `the dead-letter file holds ${2 * lineBytes} bytes; one more letter would pass its cap of ` +
        `${2 * lineBytes}`,
    });
    t.is(statSync(path).size, 2 * lineBytes);
    renameSync(path, `${path}.1`);
    await write(letter('d'));
    t.deepEqual(readFileSync(path, 'utf8'), `${JSON.stringify(letter('d'))}\n`);
    t.deepEqual(
      readFileSync(`${path}.1`, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as DeadLetter).id),
      ['a', 'b'],
    );
  },
);
