// `-o json|yaml` on every command that prints objects: one document of the documented shape, the same
// value in both formats, `--json` (where it was) the same as `-o json`, and the exit code of the text
// output.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { COMMANDS } from '../../src/cli/commands.js';
import { runCli } from '../helpers/cli-process.js';
import { keystoreJson } from '../helpers/keystore-stack.js';

const CLUSTER = new URL('../../../test/fixtures/audit/cluster.json', import.meta.url);
const SECRET = 'output-format-secret-31c7';

function keystore(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-output-'));
  const path = join(dir, 'keystore.json');
  writeFileSync(path, keystoreJson({ billing: { keys: [{ accessKeyId: 'AKOUT1', secret: SECRET }] } }));
  return path;
}

/** One call the sidecar signed, as its request log line has it. */
const SIGNED_CALL = {
  event: 'request',
  profile: 'billing',
  accessKeyId: 'AKBILLING',
  method: 'GET',
  path: '/v1.1/x/1',
  status: 200,
};

const RUNS: [title: string, args: (format: string[]) => string[], input: () => string, code: number, shape: RegExp][] =
  [
    ['audit', (f) => ['audit', ...f, '-'], () => readFileSync(CLUSTER, 'utf8'), 1, /^\{"findings":\[\{"kind":/],
    ['check', (f) => ['check', ...f, '-'], () => readFileSync(CLUSTER, 'utf8'), 1, /^\{"results":\[\{"check":/],
    ['keys list', (f) => ['keys', 'list', keystore(), ...f], () => '', 0, /^\[\{"profile":"billing","accessKeyId"/],
    [
      'policy suggest',
      (f) => ['policy', 'suggest', ...f, '-'],
      () => `${JSON.stringify(SIGNED_CALL)}\n`,
      0,
      /^\{"profiles":\{"billing":\{"operations":/,
    ],
  ];

for (const [title, args, input, code, shape] of RUNS) {
  test(`${title}: -o json and -o yaml print the same document, --json is -o json, exit ${code}`, async (t) => {
    const json = await runCli(args(['-o', 'json']), { input: input() });
    t.is(json.code, code, json.stderr);
    const value = JSON.parse(json.stdout) as unknown;
    t.regex(JSON.stringify(value), shape);
    const yaml = await runCli(args(['-o', 'yaml']), { input: input() });
    t.is(yaml.code, code, yaml.stderr);
    t.deepEqual(parse(yaml.stdout), value);
    if (title !== 'policy suggest') {
      const legacy = await runCli(args(['--json']), { input: input() });
      t.is(legacy.code, code);
      t.deepEqual(JSON.parse(legacy.stdout), value);
    }
    t.false(`${json.stdout}${yaml.stdout}`.includes(SECRET));
  });
}

test('an output format that is not json or yaml is a usage error', async (t) => {
  const run = await runCli(['audit', '-o', 'table', '-'], { input: '{}' });
  t.is(run.code, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /-o "table": must be json or yaml/);
});

test("every command's help ends with examples, each a command line under what it does", async (t) => {
  for (const command of COMMANDS) {
    const help = await runCli([command.name, '--help']);
    t.is(help.code, 0, command.name);
    const examples = help.stdout.slice(help.stdout.lastIndexOf('\nExamples:\n') + '\nExamples:\n'.length);
    t.true(help.stdout.includes('\nExamples:\n'), command.name);
    // Each example: what it does, then its command line, broken with ` \` where it is longer than the help.
    const groups = examples.trimEnd().split(/\n(?= {2}# )/);
    t.true(groups.length >= 1, command.name);
    for (const group of groups) {
      const [what, ...line] = group.split('\n');
      t.regex(what!, /^ {2}# \S/, command.name);
      t.true(line.length >= 1, `${command.name}: ${group}`);
      t.regex(line.join(' ').replaceAll(' \\ ', ' '), /sfd-sidecar|^ {2}(source|SFD_|kubectl)/, command.name);
    }
  }
});
