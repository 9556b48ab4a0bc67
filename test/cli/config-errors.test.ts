// Invalid configuration: the process exits non-zero with one message that lists every problem, each
// naming the setting and what is allowed, and never the secret.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli, startCli } from '../helpers/cli-process.js';
import { eventually } from '../helpers/time.js';
import { TEST_SECRET } from '../helpers/secrets.js';

const LOOPBACK = { SFD_LISTEN: '127.0.0.1:0', SFD_ADMIN_LISTEN: '127.0.0.1:0' };

test('every problem is listed in one message and the process exits 2', async (t) => {
  const run = await runCli(['serve', '--listen', 'nowhere'], {
    env: {
      SFD_UPSTREAM_URL: 'ftp://gateway.example.com',
      SFD_SIGNATURE_VERSION: '3',
      SFD_V2_STRING_SHAPE: 'extra',
      SFD_QUERY_PLACEMENT: 'header',
      SFD_MAX_BODY_BYTES: '-1',
      SFD_CLIENT_KEEPALIVE_TIMEOUT_MS: '500',
      SFD_SHUTDOWN_DELAY_MS: '5s',
      SFD_REQUEST_LOG: 'errors',
      SFD_ACCESS_KEY_SECRET: TEST_SECRET,
    },
  });
  t.is(run.code, 2);
  const expected = [
    'SFD_UPSTREAM_URL (from the environment): must be an http:// or https:// base URL',
    'SFD_LISTEN (from the flag): must be HOST:PORT',
    'SFD_SIGNATURE_VERSION (from the environment): must be one of 2, 1',
    'SFD_V2_STRING_SHAPE (from the environment): must be one of spec, no-extra-lf, no-keyid, no-keyid-no-extra-lf',
    'SFD_QUERY_PLACEMENT (from the environment): must be one of body, uri',
    'SFD_MAX_BODY_BYTES (from the environment): must be a whole number',
    'SFD_CLIENT_KEEPALIVE_TIMEOUT_MS (from the environment): must be a whole number from 1000 to 3600000',
    'SFD_SHUTDOWN_DELAY_MS (from the environment): must be a whole number from 0 to 3600000',
    'SFD_REQUEST_LOG (from the environment): must be one of all, failed, off',
    'SFD_ACCESS_KEY_ID: required',
  ];
  for (const fragment of expected) t.true(run.stderr.includes(fragment), fragment);
  t.regex(run.stderr, /10 problems/);
  t.false(run.stderr.includes(TEST_SECRET));
});

test('a secret given twice, and a secret file that cannot be read, are named without their values', async (t) => {
  const both = await runCli(['serve'], {
    env: {
      SFD_UPSTREAM_URL: 'https://gw.example.com',
      SFD_ACCESS_KEY_ID: 'AK1',
      SFD_ACCESS_KEY_SECRET: TEST_SECRET,
      SFD_ACCESS_KEY_SECRET_FILE: '/nope',
    },
  });
  t.is(both.code, 2);
  t.true(both.stderr.includes('SFD_ACCESS_KEY_SECRET and SFD_ACCESS_KEY_SECRET_FILE: set only one of them'));
  t.false(both.stderr.includes(TEST_SECRET));
  const missing = await runCli(['serve'], {
    env: {
      SFD_UPSTREAM_URL: 'https://gw.example.com',
      SFD_ACCESS_KEY_ID: 'AK1',
      SFD_ACCESS_KEY_SECRET_FILE: '/nope/secret',
    },
  });
  t.is(missing.code, 2);
  t.true(
    missing.stderr.includes(
      'SFD_ACCESS_KEY_SECRET_FILE (from the environment): must name a readable regular file ("/nope/secret": ' +
        'does not exist (ENOENT))',
    ),
  );
});

test('in production, nothing configured is an error rather than the demo', async (t) => {
  const run = await runCli(['serve'], { env: { NODE_ENV: 'production' } });
  t.is(run.code, 2);
  t.true(run.stderr.includes('SFD_UPSTREAM_URL: required (NODE_ENV=production never falls back to the demo)'));
  t.true(run.stderr.includes('SFD_ACCESS_KEY_ID: required'));
});

test('a key without an upstream is an error, not the demo', async (t) => {
  const run = await runCli(['serve'], { env: { SFD_ACCESS_KEY_ID: 'AK1', SFD_ACCESS_KEY_SECRET: TEST_SECRET } });
  t.is(run.code, 2);
  t.true(run.stderr.includes('SFD_UPSTREAM_URL: required'));
});

test('a .env file is read; the environment wins over it and flags win over the environment', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-env-'));
  writeFileSync(
    join(dir, '.env'),
    'SFD_UPSTREAM_URL=ftp://from-dotenv\nSFD_SIGNATURE_VERSION=7\nSFD_QUERY_PLACEMENT=fromfile\n',
  );
  const run = await runCli(['serve', '--query-placement', 'fromflag'], {
    cwd: dir,
    env: { SFD_SIGNATURE_VERSION: '8', SFD_QUERY_PLACEMENT: 'fromenv' },
  });
  t.is(run.code, 2);
  t.true(
    run.stderr.includes(
      'SFD_UPSTREAM_URL (from the dotenv file): must be an http:// or https:// base URL like ' +
        'https://host[:port][/prefix], without user, query or fragment (got "ftp://from-dotenv")',
    ),
  );
  t.true(run.stderr.includes('SFD_SIGNATURE_VERSION (from the environment): must be one of 2, 1 (got "8")'));
  t.true(run.stderr.includes('SFD_QUERY_PLACEMENT (from the flag): must be one of body, uri (got "fromflag")'));
});

test('SFD_ENV_FILE names another dotenv file, and a missing one is an error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-env-'));
  writeFileSync(join(dir, 'other.env'), 'SFD_LISTEN=bad-listen\n');
  const named = await runCli(['serve'], { cwd: dir, env: { SFD_ENV_FILE: join(dir, 'other.env') } });
  t.is(named.code, 2);
  t.true(named.stderr.includes('SFD_LISTEN (from the dotenv file): must be HOST:PORT'));
  const missing = await runCli(['serve'], { cwd: dir, env: { SFD_ENV_FILE: join(dir, 'missing.env') } });
  t.is(missing.code, 2);
  t.true(missing.stderr.includes('SFD_ENV_FILE: must name an existing dotenv file'));
});

test(
  'the --env-file flag: an existing file is read; a ' + 'missing one stops the process with its path named',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sfd-env-'));
    writeFileSync(join(dir, 'flag.env'), 'SFD_LISTEN=from-flag-file\n');
    const named = await runCli(['serve', '--env-file', join(dir, 'flag.env')], { cwd: dir });
    t.is(named.code, 2);
    t.true(
      named.stderr.includes(
        'SFD_LISTEN (from the dotenv file): must be HOST:PORT, or :PORT for every address (IPv4 and IPv6), for ' +
          'example 127.0.0.1:8080, [::1]:8080 or :9090 (got "from-flag-file")',
      ),
    );
    // Node itself also reads --env-file after the script path (nodejs/node#54232) and exits 9 on a
    // missing file before the sidecar runs; either way the user sees a non-zero exit naming the path.
    const missing = await runCli(['serve', '--env-file', join(dir, 'missing.env')], { cwd: dir });
    t.not(missing.code, 0);
    t.true(missing.stderr.includes(join(dir, 'missing.env')));
  },
);

test('an unknown flag and an unknown command are refused with usage', async (t) => {
  const flag = await runCli(['serve', '--no-such-flag', 'x']);
  t.is(flag.code, 2);
  t.true(flag.stderr.includes('--no-such-flag: not a flag of sfd-sidecar serve (sfd-sidecar serve --help lists them)'));
  const command = await runCli(['launch']);
  t.is(command.code, 2);
  t.true(command.stderr.includes('"launch" is not a command'));
  const help = await runCli(['serve', '--help']);
  t.is(help.code, 0);
  t.true(help.stdout.includes('SFD_UPSTREAM_URL'));
});

/** A configured sidecar with the notification relay on, on ports of its own choosing. */
const relayOn = {
  SFD_UPSTREAM_URL: 'https://gw.example.com',
  SFD_ACCESS_KEY_ID: 'AK1',
  SFD_ACCESS_KEY_SECRET: TEST_SECRET,
  SFD_LISTEN: '127.0.0.1:0',
  SFD_ADMIN_LISTEN: '127.0.0.1:0',
  SFD_NOTIFY_LISTEN: '127.0.0.1:0',
  SFD_NOTIFY_FORWARD_URL: 'http://127.0.0.1:3000/hooks/sfd',
};

test(
  'an allow-list entry with an empty prefix (10.0.0.0/) ' + 'stops the process instead of allowing every address',
  async (t) => {
    const run = await runCli(['serve'], { env: { ...relayOn, SFD_NOTIFY_ALLOWED_CIDRS: '203.0.113.0/24, 10.0.0.0/' } });
    t.is(run.code, 2);
    t.true(
      run.stderr.includes(
        'SFD_NOTIFY_ALLOWED_CIDRS (from the environment): must be a comma-separated list of addresses or CIDR ranges',
      ),
      run.stderr,
    );
    t.true(run.stderr.includes('(bad entry: 10.0.0.0/)'));
  },
);

test('a dead-letter cap below 1024 bytes stops the process with the allowed range', async (t) => {
  const run = await runCli(['serve'], { env: { ...relayOn, SFD_NOTIFY_DEAD_LETTER_MAX_BYTES: '100' } });
  t.is(run.code, 2);
  t.true(
    run.stderr.includes(
      'SFD_NOTIFY_DEAD_LETTER_MAX_BYTES (from the environment): must be a whole number from 1024 to 1099511627776',
    ),
    run.stderr,
  );
});

test('a dead-letter cap too small for the largest notification accepted stops the process', async (t) => {
  const limits = {
    SFD_NOTIFY_DEAD_LETTER_DIR: tmpdir(),
    SFD_NOTIFY_MAX_BODY_BYTES: '65536',
    SFD_MAX_HEADER_BYTES: '16384',
  };
  const run = await runCli(['serve'], { env: { ...relayOn, ...limits, SFD_NOTIFY_DEAD_LETTER_MAX_BYTES: '495615' } });
  t.is(run.code, 2);
  t.true(
    run.stderr.includes(
      'SFD_NOTIFY_DEAD_LETTER_MAX_BYTES: must be at least 495616, so that the dead-letter file can take the ' +
        'largest notification accepted',
    ),
    run.stderr,
  );
});

test(
  'a dead-letter directory that is missing or is a file stops the process at start, before any listener stays ' +
    'open',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sfd-dl-dir-'));
    writeFileSync(join(dir, 'a-file'), '');
    for (const [path, problem] of [
      [join(dir, 'missing'), 'does not exist'],
      [join(dir, 'a-file'), 'is not a directory'],
    ] as const) {
      const run = await runCli(['serve'], { env: { ...relayOn, SFD_NOTIFY_DEAD_LETTER_DIR: path } });
      t.is(run.code, 2);
      t.true(
        run.stderr.includes(
          `SFD_NOTIFY_DEAD_LETTER_DIR: ${path} ${problem}; it must be a directory this process can write`,
        ),
        run.stderr,
      );
    }
  },
);

test('an SFD_UPSTREAM_PROXY the sidecar cannot use stops it, named and without its password', async (t) => {
  const run = await runCli(['serve'], {
    env: {
      SFD_UPSTREAM_URL: 'https://gw.example.com',
      SFD_ACCESS_KEY_ID: 'AK1',
      SFD_ACCESS_KEY_SECRET: TEST_SECRET,
      SFD_UPSTREAM_PROXY: 'socks5://me:hunter2-proxy@proxy:1080',
    },
  });
  t.is(run.code, 2);
  t.true(
    run.stderr.includes('SFD_UPSTREAM_PROXY (from the environment): must be an http:// or https:// proxy URL'),
    run.stderr,
  );
  t.false(run.stderr.includes('hunter2-proxy'));
});

test('a misspelt name is said first, even when the configuration it leaves incomplete is refused', async (t) => {
  const run = await runCli(['serve'], {
    env: { NODE_ENV: 'production', SFD_UPSTREAM_UR: 'https://gateway.example.com', SFD_ACCESS_KEY_ID: 'AKID' },
  });
  t.is(run.code, 2);
  const warning = run.stderr.indexOf('SFD_UPSTREAM_UR (from the environment) is not a setting');
  t.true(warning >= 0, run.stderr);
  t.regex(run.stderr, /did you mean SFD_UPSTREAM_URL/);
  t.true(warning < run.stderr.indexOf('Invalid configuration'), 'the warning comes before the problems');
});

test('a misspelt name is said before the demo banner', async (t) => {
  const serve = await startCli(['serve'], null, {
    env: { SFD_UPSTREAM_UR: 'https://gateway.example.com', ...LOOPBACK },
  });
  t.teardown(() => serve.child.kill('SIGKILL'));
  t.true(await eventually(() => serve.stderr().includes('Demo mode'), 60_000), 'the demo starts');
  t.true(serve.stderr().indexOf('SFD_UPSTREAM_UR') >= 0);
  t.true(serve.stderr().indexOf('SFD_UPSTREAM_UR') < serve.stderr().indexOf('Demo mode'));
});

test('a misspelt name alone: the demo says nothing is configured and names the setting meant', async (t) => {
  const serve = await startCli(['serve'], /curl http:/, {
    env: { SFD_UPSTREM_URL: 'https://gateway.example.com', ...LOOPBACK },
  });
  t.teardown(() => serve.child.kill('SIGKILL'));
  const banner = serve.stderr().slice(serve.stderr().indexOf('Demo mode'));
  t.true(
    banner
      .replace(/\s+/g, ' ')
      .startsWith(
        'Demo mode: nothing is configured. SFD_UPSTREM_URL (did you mean SFD_UPSTREAM_URL?) is not a setting ' +
          'of sfd-sidecar and was ignored, so there is no upstream, key or key store, and the sidecar runs the ' +
          'demo: it signs for the built-in emulator at http://127.0.0.1:',
      ),
    banner,
  );
  for (const line of banner.split('\n')) t.true(line.length <= 100, line);
});

test("the kubelet's variables for a Service named sfd-... are no typo, in warnings or the demo banner", async (t) => {
  // What the kubelet writes into every pod of a namespace holding a Service `sfd-gateway` on port 8443.
  const serviceLinks = {
    SFD_GATEWAY_SERVICE_HOST: '10.96.0.12',
    SFD_GATEWAY_SERVICE_PORT: '8443',
    SFD_GATEWAY_PORT: 'tcp://10.96.0.12:8443',
    SFD_GATEWAY_PORT_8443_TCP: 'tcp://10.96.0.12:8443',
    SFD_GATEWAY_PORT_8443_TCP_ADDR: '10.96.0.12',
  };
  const serve = await startCli(['serve'], /curl http:/, { env: { ...serviceLinks, ...LOOPBACK } });
  t.teardown(() => serve.child.kill('SIGKILL'));
  const said = serve.stderr().replace(/\s+/g, ' ');
  t.true(said.includes('Demo mode: no SFD_UPSTREAM_URL, key or key store is configured'), said);
  t.false(said.includes('SFD_GATEWAY'), said);
});

test('a missing key names both ways to give one: a key, or a key store', async (t) => {
  const serve = await runCli(['serve'], { env: { SFD_UPSTREAM_URL: 'https://gateway.example.com' } });
  t.is(serve.code, 2);
  t.regex(serve.stderr, /SFD_ACCESS_KEY_ID: required, .*unless SFD_KEYSTORE_FILE names a key store/);
  const list = await runCli(['keys', 'list']);
  t.is(list.code, 2);
  t.regex(list.stderr, /SFD_ACCESS_KEY_ID: required, .*unless SFD_KEYSTORE_FILE names a key store/);
});

test('SFD_OPERATIONS naming a profile twice, or unreadable, stops the start rather than lifting it', async (t) => {
  const unreadable = await runCli(['serve'], {
    env: {
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: 'https://gateway.example.com',
      SFD_ACCESS_KEY_ID: 'AKID',
      SFD_ACCESS_KEY_SECRET: TEST_SECRET,
      SFD_OPERATIONS: '{"billing": [',
    },
  });
  t.is(unreadable.code, 2, unreadable.stderr);
  t.regex(unreadable.stderr, /SFD_OPERATIONS \(from the environment\): must be a JSON object of profiles/);
  const run = await runCli(['serve'], {
    env: {
      SFD_LISTEN: '127.0.0.1:0',
      SFD_ADMIN_LISTEN: '127.0.0.1:0',
      SFD_UPSTREAM_URL: 'https://gateway.example.com',
      SFD_ACCESS_KEY_ID: 'AKID',
      SFD_ACCESS_KEY_SECRET: TEST_SECRET,
      SFD_PROFILE: 'billing',
      SFD_OPERATIONS: '{"billing":{"operations":["getCustomer"]},"billing":"*"}',
    },
  });
  t.is(run.code, 2);
  t.regex(run.stderr, /SFD_OPERATIONS \(from the environment\): must be a JSON object of profiles, each named once/);
  t.false(run.stderr.includes(TEST_SECRET));
});
