// The bench's start-to-ready row: from exec to the first 200 of a launch's readiness path, with the CPU its
// process spent until then; a launch that never gets ready is named, never waited on for ever.
import test from 'ava';
import { formatStartToReady, measureStartToReady, startToReady } from '../../bench/start-to-ready.js';

const bare = {
  row: 'bare-node@test',
  binary: process.execPath,
  args: (port: number) => ['-e', `require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`],
  env: () => ({ PATH: process.env.PATH }),
  path: '/',
};

test('a bare server is ready at its first 200; the time and the CPU until then are measured', async (t) => {
  const ready = await startToReady(bare);
  t.true(ready.ms > 0);
  t.true(ready.cpuMs > 0);
  const { rows, failures } = await measureStartToReady([bare], 2);
  t.is(rows['bare-node@test']!.length, 2);
  t.deepEqual(failures, []);
  t.regex(formatStartToReady(rows), /^\| bare-node@test \| [\d.]+ \| [\d.]+ \| \d+, \d+ \|$/m);
});

test('a launch that exits before it is ready is named with what it said; the rounds go on without it', async (t) => {
  const broken = { ...bare, row: 'broken', args: () => ['-e', 'console.error("no port"); process.exit(3)'] };
  await t.throwsAsync(startToReady(broken), {
    message: 'broken exited (code 3) before it answered / with 200: no port',
  });
  const { rows, failures } = await measureStartToReady([broken, bare], 1);
  t.is(rows['bare-node@test']!.length, 1);
  t.deepEqual(failures, [
    'round 1, attempt 1: broken exited (code 3) before it answered / with 200: no port',
    'round 1, attempt 2: broken exited (code 3) before it answered / with 200: no port',
  ]);
});
