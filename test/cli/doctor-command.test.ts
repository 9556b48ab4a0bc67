// `sfd-sidecar doctor` as an operator runs it: exit 0 when all is well, 1 with the fix otherwise.
import test from 'ava';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { runCli } from '../helpers/cli-process.js';
import { TEST_KEY_ID, TEST_SECRET } from '../helpers/secrets.js';

test('doctor exits 0 for a working setup and 1 naming the settings for a wrong shape', async (t) => {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([[TEST_KEY_ID, { secret: Buffer.from(TEST_SECRET), customerId: 12345 }]]),
    form: { scheme: '2', shape: 'no-extra-lf', placement: 'body' },
  });
  t.teardown(() => emulator.close());
  const env = { SFD_UPSTREAM_URL: emulator.url, SFD_ACCESS_KEY_ID: TEST_KEY_ID, SFD_ACCESS_KEY_SECRET: TEST_SECRET };
  const wrong = await runCli(['doctor'], { env });
  t.is(wrong.code, 1);
  const fix = 'fix: set SFD_SIGNATURE_VERSION=2 SFD_V2_STRING_SHAPE=no-extra-lf SFD_QUERY_PLACEMENT=body';
  t.regex(wrong.stdout, new RegExp(`\\[FAIL\\] settings: .*\\n\\s+${fix}`));
  t.regex(
    wrong.stdout,
    /Recommended: SFD_SIGNATURE_VERSION=2 SFD_V2_STRING_SHAPE=no-extra-lf SFD_QUERY_PLACEMENT=body/,
  );
  const right = await runCli(['doctor', '--json', '--v2-string-shape', 'no-extra-lf'], { env });
  t.is(right.code, 0, right.stdout);
  const report = JSON.parse(right.stdout) as { ok: boolean; checks: { check: string; verdict: string }[] };
  t.true(report.ok);
  t.deepEqual(
    report.checks.map((c) => c.check),
    [
      'configuration',
      'key of profile default',
      'dns',
      'tcp',
      'tls',
      'clock',
      'signature form',
      'query placement',
      'settings',
    ],
  );
  t.false(right.stdout.includes(TEST_SECRET) || wrong.stdout.includes(TEST_SECRET));
});
