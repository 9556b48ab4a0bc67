// The unit tier's guard fails a test that runs a program or opens a socket, naming the call: a fixture
// of such tests runs under the unit tier's own configuration (ava.unit.config.js, guard included), in
// a real ava run, and each fails there while the pure test beside them passes.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { REPO_ROOT } from '../helpers/repo-root.js';

const FIXTURES = 'dist/test/fixtures/unit-tier-guard/*.js';

/** The unit tier's configuration with the fixture as its only test file, in a folder of its own. */
function fixtureConfig(): string {
  const config = join(mkdtempSync(join(tmpdir(), 'sfd-unit-guard-')), 'ava.config.mjs');
  const unit = pathToFileURL(join(REPO_ROOT, 'ava.unit.config.js')).href;
  writeFileSync(
    config,
    `import unit from ${JSON.stringify(unit)};\nexport default { ...unit, files: [${JSON.stringify(FIXTURES)}] };\n`,
  );
  return config;
}

function runAva(config: string): Promise<{ code: number | null; output: string }> {
  const cli = join(REPO_ROOT, 'node_modules/ava/entrypoints/cli.mjs');
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, '--config', config, '--tap'], { cwd: REPO_ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
    );
  });
}

/** Each test's title and whether it passed, from ava's TAP lines. */
const results = (tap: string): Map<string, boolean> =>
  new Map([...tap.matchAll(/^(ok|not ok) \d+ - (?:.* › )?(.+?)$/gm)].map((match) => [match[2]!, match[1] === 'ok']));

test('a unit test that runs a program or opens a socket fails at the call, and a pure one passes', async (t) => {
  const { code, output } = await runAva(fixtureConfig());
  t.is(code, 1, output);
  t.deepEqual(
    Object.fromEntries(results(output)),
    {
      'runs a program and waits for it': false,
      'starts a program': false,
      'listens on a socket': false,
      'connects a socket': false,
      'sends a request': false,
      'opens a datagram socket': false,
      'computes without leaving the process': true,
    },
    output,
  );
  for (const call of [
    'child_process.spawnSync',
    'child_process.execFile',
    'listening on a socket',
    'connecting a socket',
    'dgram.createSocket',
  ])
    t.true(output.includes(`${call} in the unit tier`), call);
});
