// `npm run bench` arguments: --quick, --node PATH (once or more) for the Node lines the proxies run on, and
// --operations FILE for the row whose key store limits the operations signed.
import test from 'ava';
import { nodeVersionOf, parseBenchArgs } from '../../bench/bench-args.js';
import { resolveNodeLines } from '../../bench/node-lines.js';

test('without arguments the default Node lines are measured in full form', (t) => {
  t.deepEqual(parseBenchArgs([]), { quick: false, nodes: null, operations: null });
});

test('--quick and --node in either order; --node more than once keeps the order given', (t) => {
  t.deepEqual(parseBenchArgs(['--node', '/opt/node24/bin/node', '--quick']), {
    quick: true,
    nodes: ['/opt/node24/bin/node'],
    operations: null,
  });
  t.deepEqual(parseBenchArgs(['--quick', '--node', '/a/node', '--node', '/b/node']), {
    quick: true,
    nodes: ['/a/node', '/b/node'],
    operations: null,
  });
  t.deepEqual(parseBenchArgs(['--operations', 'bench/operations-keystore.json']), {
    quick: false,
    nodes: null,
    operations: 'bench/operations-keystore.json',
  });
});

test('an unknown argument or --node without a path is refused with the usage', (t) => {
  t.throws(() => parseBenchArgs(['--fast']), { message: /unknown argument --fast; usage: npm run bench/ });
  t.throws(() => parseBenchArgs(['--node']), { message: '--node needs the path of a Node binary' });
  t.throws(() => parseBenchArgs(['--node', '--quick']), { message: '--node needs the path of a Node binary' });
  t.throws(() => parseBenchArgs(['--operations']), { message: '--operations needs the path of a key store' });
});

test('the version of a real Node binary is read; a path that is not one is named', (t) => {
  t.is(nodeVersionOf(process.execPath), process.version);
  t.throws(() => nodeVersionOf('/nonexistent/node'), {
    message: /^--node \/nonexistent\/node: not a Node binary that runs here/,
  });
});

const machineLine = Number(process.versions.node.split('.')[0]);

test('the default lines are the registry lines, then this machine: each line once, the quick form the first', (t) => {
  const asked: number[] = [];
  // Each "registry line" is this machine's Node here, so all three name one line and it is measured once.
  const fetchLine = (major: number): string => (asked.push(major), process.execPath);
  t.deepEqual(resolveNodeLines(null, process.execPath, false, fetchLine), [
    { line: machineLine, binary: process.execPath, version: process.version },
  ]);
  t.deepEqual(asked, [24, 22]);
  asked.length = 0;
  t.is(resolveNodeLines(null, process.execPath, true, fetchLine).length, 1);
  t.deepEqual(asked, [24], 'the quick form fetches only the image line');
});

test('binaries named with --node replace the defaults and fetch nothing', (t) => {
  const lines = resolveNodeLines([process.execPath], '/not/used', false, () => {
    throw new Error('fetched');
  });
  t.deepEqual(lines, [{ line: machineLine, binary: process.execPath, version: process.version }]);
});
