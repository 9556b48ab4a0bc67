// `npm run bench` arguments: --quick, and --node PATH to run the proxies on another Node (the image's).
import test from 'ava';
import { nodeVersionOf, parseBenchArgs } from '../../bench/bench-args.js';

test('without arguments the proxies run on the bench Node in full form', (t) => {
  t.deepEqual(parseBenchArgs([], '/usr/bin/node'), { quick: false, proxyNode: '/usr/bin/node' });
});

test('--quick and --node in either order', (t) => {
  t.deepEqual(parseBenchArgs(['--node', '/opt/node24/bin/node', '--quick'], '/usr/bin/node'), {
    quick: true,
    proxyNode: '/opt/node24/bin/node',
  });
  t.deepEqual(parseBenchArgs(['--quick', '--node', '/opt/node24/bin/node'], '/usr/bin/node'), {
    quick: true,
    proxyNode: '/opt/node24/bin/node',
  });
});

test('an unknown argument or --node without a path is refused with the usage', (t) => {
  t.throws(() => parseBenchArgs(['--fast'], 'node'), { message: /unknown argument --fast; usage: npm run bench/ });
  t.throws(() => parseBenchArgs(['--node'], 'node'), { message: '--node needs the path of a Node binary' });
  t.throws(() => parseBenchArgs(['--node', '--quick'], 'node'), { message: '--node needs the path of a Node binary' });
});

test('the version of a real Node binary is read; a path that is not one is named', (t) => {
  t.is(nodeVersionOf(process.execPath), process.version);
  t.throws(() => nodeVersionOf('/nonexistent/node'), {
    message: /^--node \/nonexistent\/node: not a Node binary that runs here/,
  });
});
