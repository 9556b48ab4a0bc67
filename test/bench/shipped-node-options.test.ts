// The bench and the soak run the sidecar with the image's Node settings, read from the Dockerfile's
// runtime stage: NODE_OPTIONS, and the Node flags at the head of its CMD (node is the entrypoint).
// A build stage's settings must never be taken for the runtime's.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { shippedCompileCacheRun, shippedNodeFlags, shippedNodeOptions } from '../../bench/shipped-node-options.js';
import { REPO_ROOT } from '../helpers/tools.js';

function dockerfileDir(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-dockerfile-'));
  writeFileSync(join(dir, 'Dockerfile'), text);
  return dir;
}

const BUILD_STAGE = 'FROM node:24 AS build\nENV NODE_OPTIONS="--build-only"\nCMD ["--build-flag", "build.js"]\n';

test('the runtime stage gives the options and the flags before the script, not the arguments after it', (t) => {
  const dir = dockerfileDir(
    `${BUILD_STAGE}FROM distroless AS runtime\nENV NODE_OPTIONS="--a=1 --b"\nCMD ["--no-maglev", "--x=2", ` +
      `"dist/src/main.js", "serve", "--later"]\n`,
  );
  t.is(shippedNodeOptions(dir), '--a=1 --b');
  t.deepEqual(shippedNodeFlags(dir), ['--no-maglev', '--x=2']);
});

test('a CMD that starts with the script has no flags', (t) => {
  const dir = dockerfileDir(
    `${BUILD_STAGE}FROM distroless AS runtime\nENV NODE_OPTIONS=--a\nCMD ["dist/src/main.js", "serve"]\n`,
  );
  t.is(shippedNodeOptions(dir), '--a');
  t.deepEqual(shippedNodeFlags(dir), []);
});

test('a runtime stage without NODE_OPTIONS or an exec-form CMD is refused, never read from another stage', (t) => {
  const dir = dockerfileDir(`${BUILD_STAGE}FROM distroless AS runtime\nCMD node dist/src/main.js serve\n`);
  t.throws(() => shippedNodeOptions(dir), { message: 'the Dockerfile runtime stage sets no NODE_OPTIONS' });
  t.throws(() => shippedNodeFlags(dir), { message: 'the Dockerfile runtime stage has no CMD in exec form' });
});

test("`npm start` runs the sidecar with the image's Node flags and options, plus source maps", (t) => {
  const start = (
    JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start.split(' ');
  t.deepEqual(start.slice(0, 1), ['node']);
  t.deepEqual(start.slice(-2), ['dist/src/main.js', 'serve']);
  const flags = start.slice(1, -2).filter((flag) => flag !== '--enable-source-maps');
  const shipped = [...shippedNodeFlags(REPO_ROOT), ...shippedNodeOptions(REPO_ROOT).split(' ')];
  t.deepEqual([...flags].sort(), [...shipped].sort());
});

test("the compile cache run is the runtime stage's, read only where it sets NODE_COMPILE_CACHE", (t) => {
  const run = 'RUN ["/nodejs/bin/node", "--no-maglev", "dist/src/warm-compile-cache.js"]\n';
  const runtime = 'FROM distroless AS runtime\nENV NODE_OPTIONS=--a\n';
  const cached = dockerfileDir(
    `${BUILD_STAGE}${runtime}ENV NODE_COMPILE_CACHE=/app/compile-cache\n${run}CMD ["x.js"]\n`,
  );
  t.deepEqual(shippedCompileCacheRun(cached), ['--no-maglev', 'dist/src/warm-compile-cache.js']);
  t.is(shippedCompileCacheRun(dockerfileDir(`${BUILD_STAGE}${runtime}CMD ["x.js"]\n`)), null);
  t.throws(
    () => shippedCompileCacheRun(dockerfileDir(`${BUILD_STAGE}${runtime}ENV NODE_COMPILE_CACHE=/c\nCMD ["x.js"]\n`)),
    { message: 'the Dockerfile runtime stage sets NODE_COMPILE_CACHE and writes no cache' },
  );
  t.deepEqual(shippedCompileCacheRun(REPO_ROOT)?.slice(0, -1), shippedNodeFlags(REPO_ROOT), 'the flags of CMD');
});
