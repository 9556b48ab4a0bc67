// What an operator sees in the first hour: mistakes named instead of ignored, every command explaining
// itself, and production output that is JSON lines from the first to the last.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { COMMANDS } from '../../src/cli/commands.js';
import { runCli, startCli } from '../helpers/cli-process.js';
import { send } from '../helpers/http.js';
import { TEST_KEY_ID, TEST_SECRET } from '../helpers/secrets.js';
import { REPO_ROOT } from '../helpers/tools.js';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const loopbackPorts = { SFD_LISTEN: '127.0.0.1:0', SFD_ADMIN_LISTEN: '127.0.0.1:0' };
const configured = {
  ...loopbackPorts,
  SFD_UPSTREAM_URL: 'http://127.0.0.1:9',
  SFD_ACCESS_KEY_ID: TEST_KEY_ID,
  SFD_ACCESS_KEY_SECRET: TEST_SECRET,
};
const tempDir = (): string => mkdtempSync(join(tmpdir(), 'sfd-first-hour-'));
const jsonLines = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

test('--version prints the version from package.json', async (t) => {
  const run = await runCli(['--version']);
  t.is(run.code, 0);
  t.is(run.stdout, `sfd-sidecar ${VERSION}\n`);
});

test('serve says its version on its start line and in sfd_build_info', async (t) => {
  const serve = await startCli(['serve'], /"event":"listening"/, { cwd: tempDir(), env: configured });
  t.teardown(() => serve.child.kill('SIGKILL'));
  const listening = jsonLines(serve.stdout()).find((line) => line.event === 'listening')!;
  t.is(listening.version, VERSION);
  const metrics = await send(`http://${String(listening.admin)}/metrics`);
  t.regex(
    metrics.body.toString(),
    new RegExp(`^sfd_build_info\\{version="${VERSION.replace(/\./g, '\\.')}"\\} 1$`, 'm'),
  );
});

test('a misspelled SFD_ variable is a warning with the nearest name; the sidecar still starts', async (t) => {
  const serve = await startCli(['serve'], /"event":"listening"/, {
    cwd: tempDir(),
    env: { ...configured, SFD_SIGNATURE_VERISON: '1', SFD_UPSTREAM_TIMEOUT: '5000' },
  });
  t.teardown(() => serve.child.kill('SIGKILL'));
  const warnings = jsonLines(serve.stdout())
    .filter((line) => line.level === 'warn')
    .map((line) => line.warning);
  t.true(
    warnings.includes(
      'SFD_SIGNATURE_VERISON (from the environment) is not a setting of sfd-sidecar and is ignored; did you ' +
        'mean SFD_SIGNATURE_VERSION?',
    ),
  );
  t.true(
    warnings.includes(
      'SFD_UPSTREAM_TIMEOUT (from the environment) is not a setting of sfd-sidecar and is ignored; did you ' +
        'mean SFD_UPSTREAM_TIMEOUT_MS?',
    ),
  );
});

test('a misspelled flag is an error with the nearest flag, exit 2, without an unbalanced quote', async (t) => {
  const run = await runCli(['serve', '--upstream-timout', '5000'], { env: configured });
  t.is(run.code, 2);
  t.regex(run.stderr, /--upstream-timout: not a flag of sfd-sidecar serve; did you mean --upstream-timeout-ms\?/);
  t.is((run.stderr.match(/'/g) ?? []).length % 2, 0);
});

test(
  'a secret file with whitespace at its end is warned about by serve and keys check, naming the file, never the ' +
    'value',
  async (t) => {
    const dir = tempDir();
    const secretFile = join(dir, 'secret');
    writeFileSync(secretFile, `${TEST_SECRET}  \n\n`);
    const serve = await startCli(['serve'], /"event":"listening"/, {
      cwd: dir,
      env: { ...configured, SFD_ACCESS_KEY_SECRET: '', SFD_ACCESS_KEY_SECRET_FILE: secretFile },
    });
    t.teardown(() => serve.child.kill('SIGKILL'));
    t.regex(
      serve.stdout(),
      new RegExp(`SFD_ACCESS_KEY_SECRET_FILE: the secret in ${secretFile} has 3 whitespace characters at its end`),
    );
    t.false(serve.stdout().includes(TEST_SECRET));

    writeFileSync(
      join(dir, 'keys.yaml'),
      `profiles:\n  default:\n    keys:\n      - accessKeyId: ${TEST_KEY_ID}\n        secretFile: ./secret\n`,
    );
    const check = await runCli(['keys', 'check', join(dir, 'keys.yaml')]);
    t.is(check.code, 0);
    t.regex(
      check.stdout + check.stderr,
      /warning: line 4, column 9: profiles\.default\.keys\[0\]: the secret in \.\/secret has 3 whitespace characters/,
    );
    t.false((check.stdout + check.stderr).includes(TEST_SECRET));
  },
);

test('.env lines that cannot be read are named by line; a problem says which source its value came from', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, '.env'), 'SFD_LOG_LEVEL=info\nthis is not a setting line\nSFD_MAX_BODY_BYTES=lots\n');
  const run = await runCli(['serve'], { cwd: dir, env: configured });
  t.is(run.code, 2);
  t.regex(run.stderr, /SFD_MAX_BODY_BYTES \(from the dotenv file\): must be a whole number/);

  writeFileSync(join(dir, '.env'), 'SFD_LOG_LEVEL=info\nthis is not a setting line\n');
  const serve = await startCli(['serve'], /"event":"listening"/, { cwd: dir, env: configured });
  t.teardown(() => serve.child.kill('SIGKILL'));
  t.regex(serve.stdout(), /\.env: line 2 is not NAME=value and was skipped/);
});

test(
  'sign says why the body of a GET is not signed ' + 'under placement body, and that --url must be ' + 'absolute',
  async (t) => {
    const key = ['--access-key-id', TEST_KEY_ID, '--access-key-secret', TEST_SECRET];
    const get = await runCli([
      'sign',
      '--url',
      'https://gw.example/v1/x?a=1',
      '--body',
      '{"a":1}',
      '--query-placement',
      'body',
      ...key,
    ]);
    t.is(get.code, 0);
    t.regex(
      get.stderr,
      /^note: the body is not signed: under query placement body, a GET signs its query where the body goes/m,
    );
    const post = await runCli([
      'sign',
      '--method',
      'POST',
      '--url',
      'https://gw.example/v1/x?a=1',
      '--body',
      '{}',
      ...key,
    ]);
    t.is(post.stderr, '');

    const relative = await runCli(['sign', '--url', '/v1.1/customer/1', ...key]);
    t.is(relative.code, 2);
    t.regex(
      relative.stderr,
      /--url: "\/v1\.1\/customer\/1" is a path; give the absolute URL \(the host is part of what is signed\)/,
    );
  },
);

for (const command of COMMANDS) {
  test(
    `${command.name} --help is its own help: within 100 columns, plain text, every setting with allowed values ` +
      `and default`,
    async (t) => {
      const run = await runCli([command.name, '--help']);
      t.is(run.code, 0);
      t.true(run.stdout.startsWith(`Usage: sfd-sidecar ${command.name} `));
      const lines = run.stdout.split('\n');
      t.deepEqual(
        lines.filter((line) => line.length > 100),
        [],
      );
      t.false(run.stdout.includes('`'));
      t.false(run.stdout.includes('default default'));
      const settings = lines.filter((line) => /^ {2}--[a-z-]+, SFD_[A-Z_]+$/.test(line));
      for (const setting of settings) {
        const description = lines
          .slice(lines.indexOf(setting) + 1)
          .join(' ')
          .split(/\n {2}--/)[0]!;
        t.regex(description, /Allowed: .*(default|no default)/, setting);
      }
    },
  );
}

test('the same address for two listeners is reported as that conflict, naming both settings', async (t) => {
  const run = await runCli(['serve', '--listen', '127.0.0.1:9555', '--admin-listen', '127.0.0.1:9555'], {
    env: configured,
  });
  t.is(run.code, 2);
  t.regex(run.stderr, /SFD_LISTEN and SFD_ADMIN_LISTEN: both listen on port 9555/);
  t.false(run.stderr.includes('another process'));
});

test(
  'keys check lists every problem of a file in one run, in the terms of the file; a numeric signatureVersion is ' +
    'taken',
  async (t) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secret'), `${TEST_SECRET}\n`);
    const file = join(dir, 'keys.yaml');
    writeFileSync(
      file,
      [
        'profiles:',
        '  default:',
        '    signatureVersion: 3',
        '    keys:',
        '      - accessKeyId: ""',
        '        secretFile: ./secret',
        '        notBefore: yesterday',
        '  Bad Name:',
        '    keys: []',
        '',
      ].join('\n'),
    );
    const bad = await runCli(['keys', 'check', file]);
    t.is(bad.code, 1);
    for (const problem of [
      'profiles.default.signatureVersion: must be 2 or 1',
      'profiles.default.keys[0].accessKeyId: must be 1 to 128 printable characters',
      'profiles.default.keys[0].notBefore: must be an RFC 3339 instant',
      'line 8, column 3: profiles[1]: a profile name must be letters, digits, dot, dash and underscore',
      'line 9, column 5: profiles[1].keys: must be a list of one key or more',
    ]) {
      t.true(bad.stderr.includes(problem), problem);
    }
    t.regex(bad.stderr, /5 problems/);

    writeFileSync(
      file,
      `profiles:\n  default:\n    signatureVersion: 2\n    keys:\n      - accessKeyId: ${TEST_KEY_ID}\n      ` +
        `  secretFile: ./secret\n`,
    );
    const good = await runCli(['keys', 'check', file]);
    t.is(good.code, 0, good.stderr);
    t.regex(good.stdout, /valid, 1 profile, 1 key/);
  },
);

test('in production, everything serve writes from start to SIGTERM is JSON lines on stdout', async (t) => {
  const serve = await startCli(['serve'], /"event":"listening"/, {
    cwd: tempDir(),
    env: { ...configured, NODE_ENV: 'production', SFD_SHUTDOWN_DELAY_MS: '0' },
  });
  t.teardown(() => serve.child.kill('SIGKILL'));
  serve.child.kill('SIGTERM');
  t.is(await serve.exited, 0);
  t.is(serve.stderr(), '');
  const lines = jsonLines(serve.stdout());
  t.like(
    lines.find((line) => line.event === 'shutting down'),
    { signal: 'SIGTERM' },
  );
  t.is(lines.at(-1)?.event, 'stopped');
});

test("--help lists every command within 100 columns and says how to get one command's help", async (t) => {
  const run = await runCli(['--help']);
  t.is(run.code, 0);
  t.deepEqual(
    run.stdout.split('\n').filter((line) => line.length > 100),
    [],
  );
  for (const command of COMMANDS) t.regex(run.stdout, new RegExp(`^ {2}${command.name} `, 'm'));
  t.regex(run.stdout, /sfd-sidecar COMMAND --help/);
});

test("a Service's kubelet variables (sfd-...) draw no warning; a misspelt setting still does", async (t) => {
  // What the kubelet gives every container of a namespace holding the chart's Service `sfd-sidecar`.
  const serviceLinks = {
    SFD_SIDECAR_SERVICE_HOST: '10.96.12.7',
    SFD_SIDECAR_SERVICE_PORT: '443',
    SFD_SIDECAR_SERVICE_PORT_HTTPS: '443',
    SFD_SIDECAR_PORT: 'tcp://10.96.12.7:443',
    SFD_SIDECAR_PORT_443_TCP: 'tcp://10.96.12.7:443',
    SFD_SIDECAR_PORT_443_TCP_PROTO: 'tcp',
    SFD_SIDECAR_PORT_443_TCP_PORT: '443',
    SFD_SIDECAR_PORT_443_TCP_ADDR: '10.96.12.7',
  };
  const serve = await startCli(['serve'], /"event":"listening"/, {
    cwd: tempDir(),
    env: { ...configured, ...serviceLinks, SFD_LISTEN_PORT: '8080' },
  });
  t.teardown(() => serve.child.kill('SIGKILL'));
  const warnings = jsonLines(serve.stdout())
    .filter((line) => line.level === 'warn')
    .map((line) => String(line.warning));
  t.deepEqual(
    warnings.filter((warning) => warning.includes('is not a setting')),
    ['SFD_LISTEN_PORT (from the environment) is not a setting of sfd-sidecar and is ignored; did you mean SFD_LISTEN?'],
  );
});
