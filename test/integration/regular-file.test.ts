// Files the sidecar reads are regular files within a cap: a FIFO, a device or a directory is named as
// such at once (never waited on or read without end), and a file past its cap is refused.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { describeFileProblem, readRegularFile, readRegularFileSync } from '../../src/files/regular-file.js';

const dir = mkdtempSync(join(tmpdir(), 'sfd-files-'));
const fifo = join(dir, 'store.fifo');
execFileSync('mkfifo', [fifo]);
const zero = join(dir, 'zero.json');
symlinkSync('/dev/zero', zero);
const big = join(dir, 'big.json');
writeFileSync(big, 'x'.repeat(2048));
const plain = join(dir, 'plain.json');
writeFileSync(plain, 'ünïcode\n');

async function problemOf(read: () => unknown): Promise<string> {
  try {
    await read();
  } catch (error) {
    return describeFileProblem(error);
  }
  return 'no problem';
}

test('a FIFO is refused at once, without waiting for a writer', async (t) => {
  t.is(await problemOf(() => readRegularFile(fifo, 1024)), 'not a regular file but a FIFO');
  t.is(await problemOf(() => readRegularFileSync(fifo, 1024)), 'not a regular file but a FIFO');
});

test('a symlink to a device is refused, not read without end', async (t) => {
  t.is(await problemOf(() => readRegularFile(zero, 1024)), 'not a regular file but a character device');
  t.is(await problemOf(() => readRegularFileSync(zero, 1024)), 'not a regular file but a character device');
});

test('a file past its cap is refused; one within it is read whole', async (t) => {
  t.is(await problemOf(() => readRegularFile(big, 1024)), 'larger than 1 KiB, the most such a file may hold');
  t.is(await problemOf(() => readRegularFileSync(big, 1024)), 'larger than 1 KiB, the most such a file may hold');
  t.is(await readRegularFile(big, 2048), 'x'.repeat(2048));
  t.is(await readRegularFile(plain, 1024), 'ünïcode\n');
  t.is(readRegularFileSync(plain, 1024).toString('utf8'), 'ünïcode\n');
});

test('a missing file and a directory are described in words', async (t) => {
  t.is(await problemOf(() => readRegularFile(join(dir, 'nope'), 1024)), 'does not exist (ENOENT)');
  t.is(await problemOf(() => readRegularFile(dir, 1024)), 'not a regular file but a directory');
});
