// An upstream URL written with a user and password is refused, and every message that refuses it names the
// URL without them, as the egress proxy is named: `serve` and `injector` at start, `inject` over a pod's
// annotation or its own flag, and `check --pod`; so is the relay's forward URL. Each run's stdout and
// stderr are scanned for the user and the password.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runCli, type Finished } from '../helpers/cli-process.js';

const USER = 'url-user-7c1e';
const PASSWORD = 'url-password-4b9d';
const WITH_CREDENTIALS = `https://${USER}:${PASSWORD}@gateway.example/v1`;
const KEY = { SFD_ACCESS_KEY_ID: 'AKURLCREDS1', SFD_ACCESS_KEY_SECRET: 'url-creds-secret-0123456789' };

function refusedWithoutCredentials(
  t: ExecutionContext,
  run: Finished,
  setting: RegExp,
  shown = 'https://gateway.example/v1',
): void {
  t.not(run.code, 0);
  const output = run.stdout + run.stderr;
  t.regex(output, setting);
  t.true(output.includes(`${shown} (with credentials)`), output);
  t.false(output.includes(PASSWORD), output);
  t.false(output.includes(USER), output);
}

test('serve and injector refuse an upstream URL with credentials without repeating them', async (t) => {
  const serve = await runCli(['serve'], {
    env: { NODE_ENV: 'production', SFD_UPSTREAM_URL: WITH_CREDENTIALS, ...KEY },
  });
  refusedWithoutCredentials(t, serve, /SFD_UPSTREAM_URL \(from the environment\): must be an http/);
  const flag = await runCli(['serve', '--upstream-url', WITH_CREDENTIALS], { env: { NODE_ENV: 'production', ...KEY } });
  refusedWithoutCredentials(t, flag, /SFD_UPSTREAM_URL \(from the flag\)/);
  const injector = await runCli(['injector'], { env: { SFD_UPSTREAM_URL: WITH_CREDENTIALS } });
  refusedWithoutCredentials(t, injector, /SFD_UPSTREAM_URL/);
  const relay = await runCli(['serve'], {
    env: {
      NODE_ENV: 'production',
      SFD_UPSTREAM_URL: 'https://gateway.example',
      ...KEY,
      SFD_NOTIFY_LISTEN: '127.0.0.1:0',
      SFD_NOTIFY_FORWARD_URL: `ftp://${USER}:${PASSWORD}@127.0.0.1:3000/hooks`,
    },
  });
  refusedWithoutCredentials(t, relay, /SFD_NOTIFY_FORWARD_URL/, 'ftp://127.0.0.1:3000/hooks');
});

test('inject and check --pod refuse an upstream-url annotation with credentials without repeating them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-url-credentials-'));
  const manifest = join(dir, 'pod.yaml');
  writeFileSync(
    manifest,
    [
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: web',
      '  namespace: shop',
      '  labels: {sfd-sidecar.io/inject: "true"}',
      `  annotations: {sfd-sidecar.io/upstream-url: "${WITH_CREDENTIALS}"}`,
      'spec:',
      '  containers: [{name: web, image: example/web:1}]',
      '',
    ].join('\n'),
  );
  const inject = await runCli(['inject', '--keystore-secret', 'sfd-keys', manifest]);
  refusedWithoutCredentials(t, inject, /Pod\/web .*annotation sfd-sidecar\.io\/upstream-url: must be/);
  const check = await runCli(['check', '--pod', 'web', '-n', 'shop', '--keystore-secret', 'sfd-keys', manifest]);
  refusedWithoutCredentials(t, check, /annotation sfd-sidecar\.io\/upstream-url: must be/);
  const json = await runCli([
    'check',
    '--pod',
    'web',
    '-n',
    'shop',
    '--keystore-secret',
    'sfd-keys',
    '--json',
    manifest,
  ]);
  refusedWithoutCredentials(t, json, /upstream-url/);
  const flag = await runCli(['inject', '--keystore-secret', 'sfd-keys', '--upstream-url', WITH_CREDENTIALS, manifest]);
  refusedWithoutCredentials(t, flag, /SFD_UPSTREAM_URL \(from the flag\)/);
});
