// The log destination: lines in order and whole, in batches; a destination that is slow, refuses for a
// while or goes away never loses more than it must, never grows without bound, never throws at a caller.
import test from 'ava';
import { createBatchedLineWriter } from '../../../src/observability/batched-line-writer.js';

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

test('lines wait for a full batch or a flush, then go out in order in one write', (t) => {
  const writes: string[] = [];
  const writer = createBatchedLineWriter({
    fd: 1,
    batchChars: 30,
    write: (_fd, data) => (writes.push(data.toString()), data.length),
  });
  writer.write('{"n":1}\n');
  writer.write('{"n":2}\n');
  t.deepEqual(writes, [], 'nothing written below the batch size');
  writer.write('{"n":3}\n');
  writer.write('{"n":4}\n');
  t.deepEqual(writes, ['{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n']);
  writer.write('{"n":5}\n');
  writer.flush();
  t.deepEqual(writes, ['{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n', '{"n":5}\n']);
});

test('short writes are continued until every byte, non-ASCII included, is out', (t) => {
  const out: Buffer[] = [];
  const writer = createBatchedLineWriter({
    fd: 1,
    write: (_fd, data) => (out.push(data.subarray(0, 5)), Math.min(5, data.length)),
  });
  const lines = ['{"path":"/café"}\n', '{"path":"/日本"}\n'];
  for (const line of lines) writer.write(line);
  writer.flush();
  t.is(Buffer.concat(out).toString('utf8'), lines.join(''));
});

test('while the destination refuses (EAGAIN) lines are kept, beyond the limit dropped and then reported', (t) => {
  let refusing = true;
  const out: string[] = [];
  const writer = createBatchedLineWriter({
    fd: 1,
    batchChars: 10,
    maxPendingChars: 40,
    write: (_fd, data) => {
      if (refusing) throw errno('EAGAIN');
      out.push(data.toString());
      return data.length;
    },
  });
  for (let i = 0; i < 10; i += 1) writer.write(`line-${i}\n`); // 7 characters each: 5 fit under 40
  t.deepEqual(out, []);
  t.is(writer.droppedLines(), 5);
  refusing = false;
  writer.flush();
  const text = out.join('');
  t.true(text.startsWith('line-0\nline-1\nline-2\nline-3\nline-4\n'), text);
  const report = JSON.parse(text.split('\n')[5]!) as Record<string, unknown>;
  t.like(report, { level: 'warn', droppedLines: 5 });
});

test('a destination that is gone (EPIPE) drops the batch without throwing at the caller', (t) => {
  const writer = createBatchedLineWriter({
    fd: 1,
    batchChars: 1,
    write: () => {
      throw errno('EPIPE');
    },
  });
  t.notThrows(() => writer.write('a\n'));
  t.notThrows(() => writer.write('b\n'));
  t.is(writer.droppedLines(), 2);
});

test(
  'while a stalled reader refuses, each batch is handed over once: no write copies the backlog, and nothing is ' +
    'lost',
  (t) => {
    let refusing = true;
    const sizes: number[] = [];
    const out: string[] = [];
    const writer = createBatchedLineWriter({
      fd: 1,
      batchChars: 100,
      write: (_fd, data) => {
        sizes.push(data.length);
        if (refusing) throw errno('EAGAIN');
        out.push(data.toString());
        return data.length;
      },
    });
    const lines = Array.from({ length: 1000 }, (_, i) => `{"n":${String(i).padStart(4, '0')}}\n`); // 11 characters each
    for (const line of lines) writer.write(line);
    // 1000 lines of 11 characters in batches of at least 100: one refused write per batch, each of one batch.
    t.true(sizes.length >= 100 && sizes.length <= 110, String(sizes.length));
    t.true(Math.max(...sizes) <= 110, String(Math.max(...sizes)));
    t.is(writer.droppedLines(), 0);
    refusing = false;
    writer.flush();
    t.is(out.join(''), lines.join(''));
  },
);

test('the last flush waits for a destination that refuses for a moment, and gives up after its limit', (t) => {
  let refusals = 3;
  const slept: number[] = [];
  const out: string[] = [];
  const writer = createBatchedLineWriter({
    fd: 1,
    write: (_fd, data) => {
      if (refusals > 0) {
        refusals -= 1;
        throw errno('EAGAIN');
      }
      out.push(data.toString());
      return data.length;
    },
    sleep: (ms) => void slept.push(ms),
  });
  writer.write('last line\n');
  t.true(writer.flushWaiting(1000));
  t.deepEqual(out, ['last line\n']);
  t.deepEqual(slept, [10, 10, 10], 'three refusals, three short waits');

  refusals = Infinity;
  slept.length = 0;
  writer.write('never taken\n');
  t.false(writer.flushWaiting(100));
  t.is(slept.length, 10, 'gives up after 100 ms of waiting');
});

test('a write cut short and then refused keeps the rest, in order, before the lines that follow', (t) => {
  const answers: (number | 'EAGAIN')[] = [4, 'EAGAIN'];
  const out: string[] = [];
  const writer = createBatchedLineWriter({
    fd: 1,
    batchChars: 10,
    write: (_fd, data) => {
      const answer = answers.shift() ?? data.length;
      if (answer === 'EAGAIN') throw errno('EAGAIN');
      out.push(data.subarray(0, answer).toString());
      return answer;
    },
  });
  writer.write('first-line\n'); // 11 characters: a full batch, cut after 4 bytes, then refused
  writer.write('second\n');
  writer.flush();
  t.is(out.join(''), 'first-line\nsecond\n');
  t.is(writer.droppedLines(), 0);
});

test('a line longer than the whole batch buffer goes out whole, between its neighbours', (t) => {
  const out: string[] = [];
  const writer = createBatchedLineWriter({
    fd: 1,
    batchChars: 16,
    write: (_fd, data) => (out.push(data.toString()), data.length),
  });
  const long = `{"note":"${'é'.repeat(100_000)}"}\n`;
  writer.write('{"n":1}\n');
  writer.write(long);
  writer.write('{"n":2}\n');
  writer.flush();
  t.is(out.join(''), `{"n":1}\n${long}{"n":2}\n`);
});

test('a waiting line starts one timer that writes it out; nothing waiting, no timer', (t) => {
  const writes: string[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const writer = createBatchedLineWriter({
    fd: 1,
    batchChars: 1000,
    flushAfterMs: 250,
    schedule: (run, ms) => void timers.push({ run, ms }),
    write: (_fd, data) => (writes.push(data.toString()), data.length),
  });
  t.is(timers.length, 0, 'an idle writer has no timer');
  writer.write('{"n":1}\n');
  writer.write('{"n":2}\n');
  t.deepEqual(
    timers.map((timer) => timer.ms),
    [250],
    'one timer for the lines that wait',
  );
  timers.shift()!.run();
  t.deepEqual(writes, ['{"n":1}\n{"n":2}\n']);
  t.is(timers.length, 0, 'written out: no timer is started again');
  writer.write('{"n":3}\n');
  t.is(timers.length, 1, 'the next line starts the next timer');
});

test('while the destination refuses, the timer comes back until the lines are out', (t) => {
  const writes: string[] = [];
  let refusing = true;
  const timers: (() => void)[] = [];
  const writer = createBatchedLineWriter({
    fd: 1,
    batchChars: 1000,
    flushAfterMs: 250,
    schedule: (run) => void timers.push(run),
    write: (_fd, data) => {
      if (refusing) throw errno('EAGAIN');
      writes.push(data.toString());
      return data.length;
    },
  });
  writer.write('{"n":1}\n');
  timers.shift()!();
  t.deepEqual(writes, []);
  t.is(timers.length, 1, 'the refused line keeps a timer');
  refusing = false;
  timers.shift()!();
  t.deepEqual(writes, ['{"n":1}\n']);
  t.is(timers.length, 0);
});
