// No secret reaches any output, whatever the input: serve (with reloads), keys check, keys list (of the
// configured store and of a file), sign and doctor run over key stores that carry secrets in every place
// a parser could quote them (YAML with unknown tags, anchors, duplicate keys, wrong types; JSON with
// syntax errors and duplicate keys), secret files, a dotenv file, a CA bundle, an egress proxy URL with
// its password and a notification token, at every log level and with DEBUG=* (the debug output of
// dependencies). Every byte the processes print, and every answer of their listeners, is scanned for
// every secret.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { freePort } from '../../bench/net-utils.js';
import { LOG_LEVELS } from '../../src/config/settings.js';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { runCli, startCli, type Finished } from '../helpers/cli-process.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { send } from '../helpers/http.js';
import { eventually } from '../helpers/time.js';
import { LEAK_SECRETS } from '../helpers/test-secrets.js';
import { startTlsFront } from '../helpers/tls-server.js';

const S = LEAK_SECRETS;
const KEY_ID = 'AKLEAK0001';
const GATEWAY = 'gateway.test';

/** Key store texts, each with secrets where a parser might quote them. */
const STORES: Readonly<Record<string, string>> = {
  'tag.yaml': `profiles:\n  default:\n    keys:\n      - accessKeyId: ${KEY_ID}\n        secret: !vault ${S.yamlTag}\n`,
  'anchors.yaml': [
    'profiles:',
    '  default:',
    '    keys:',
    `      - { accessKeyId: ${KEY_ID}, secret: &s ${S.yamlAnchor} }`,
    '  other:',
    '    keys:',
    `      - { accessKeyId: AKOTHER, secret: *s, notAfter: *s, notBefore: [*s] }`,
    '',
  ].join('\n'),
  'duplicate.yaml':
    `profiles:\n  default:\n    keys:\n      - accessKeyId: ${KEY_ID}\n        secret: ${S.yamlDuplicate}\n    ` +
    `    secret: ${S.yamlDuplicate}-again\n`,
  'wrong-types.yaml':
    `profiles:\n  default:\n    keys:\n      - accessKeyId: ${KEY_ID}\n        secret: [${S.yamlWrongType}]\n  ` +
    `      signatureVersion: ${S.yamlWrongType}\n`,
  'unclosed.yaml': `profiles:\n  default:\n    keys: [ { accessKeyId: ${KEY_ID}, secret: "${S.yamlUnclosed}\n`,
  'duplicate.json':
    `{"profiles":{"default":{"keys":[{"accessKeyId":"${KEY_ID}",` +
    `"secret":"${S.jsonDuplicate}","secret":"${S.jsonDuplicate}-2"}]}}}`,
  'syntax.json': `{"profiles":{"default":{"keys":[{"accessKeyId":"${KEY_ID}","secret": ${S.jsonSyntax} }]}}}`,
  'wrong-types.json': JSON.stringify({
    profiles: {
      default: {
        upstreamUrl: `https://user:${S.jsonWrongType}@gateway.example`,
        signatureVersion: S.jsonWrongType,
        keys: [{ accessKeyId: KEY_ID, secret: { value: S.jsonWrongType }, notAfter: S.jsonWrongType }],
      },
    },
  }),
};

const GOOD_STORE = JSON.stringify({
  profiles: {
    default: {
      keys: [
        { accessKeyId: KEY_ID, secret: S.keyStore },
        { accessKeyId: 'AKLEAK0002', secretFile: 'key.secret' },
      ],
    },
  },
});

interface Fixture {
  readonly dir: string;
  readonly env: Record<string, string>;
  readonly notifyPort: number;
  readonly signingPort: number;
  readonly adminPort: number;
}

async function fixture(t: ExecutionContext, level: string): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-leak-'));
  for (const [name, text] of Object.entries(STORES)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'good.json'), GOOD_STORE);
  writeFileSync(join(dir, 'key.secret'), `${S.secretFile}\n`);
  writeFileSync(join(dir, 'bad-ca.pem'), `-----BEGIN CERTIFICATE-----\n${S.caBundle}\n-----END CERTIFICATE-----\n`);
  writeFileSync(
    join(dir, 'sign.env'),
    `SFD_ACCESS_KEY_ID=${KEY_ID}\nSFD_ACCESS_KEY_SECRET=${S.dotenv}\n${S.dotenv}-not-a-line\n`,
  );
  // The gateway: the emulator with the good store's key, behind TLS, reached only through the proxy.
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([[KEY_ID, { secret: Buffer.from(S.keyStore), customerId: 12345 }]]),
  });
  t.teardown(() => emulator.close());
  const front = await startTlsFront(t, emulator.address.port, GATEWAY);
  const proxy = await startConnectProxy(t, {
    hosts: { [GATEWAY]: '127.0.0.1' },
    credentials: `leak-user:${S.proxyPassword}`,
  });
  const [signingPort, adminPort, notifyPort] = [await freePort(), await freePort(), await freePort()];
  const env = {
    DEBUG: '*',
    SFD_LOG_LEVEL: level,
    SFD_UPSTREAM_URL: `https://${GATEWAY}:${front.port}`,
    SFD_UPSTREAM_CA_FILE: front.certFile,
    SFD_UPSTREAM_PROXY: `http://leak-user:${S.proxyPassword}@127.0.0.1:${proxy.port}`,
    SFD_KEYSTORE_FILE: join(dir, 'good.json'),
    SFD_KEYSTORE_DEBOUNCE_MS: '20',
    SFD_LISTEN: `127.0.0.1:${signingPort}`,
    SFD_ADMIN_LISTEN: `127.0.0.1:${adminPort}`,
    SFD_NOTIFY_LISTEN: `127.0.0.1:${notifyPort}`,
    SFD_NOTIFY_FORWARD_URL: `http://127.0.0.1:${await freePort()}/hooks`,
    SFD_NOTIFY_TOKEN: S.notifyToken,
    SFD_NOTIFY_REQUIRE_HEADER: 'false',
  };
  return { dir, env, notifyPort, signingPort, adminPort };
}

/** The same fixture's listeners on other ports, for a second `serve` beside the first. */
async function onOtherPorts(f: Fixture): Promise<Fixture> {
  const [signingPort, adminPort, notifyPort] = [await freePort(), await freePort(), await freePort()];
  const env = {
    ...f.env,
    SFD_LISTEN: `127.0.0.1:${signingPort}`,
    SFD_ADMIN_LISTEN: `127.0.0.1:${adminPort}`,
    SFD_NOTIFY_LISTEN: `127.0.0.1:${notifyPort}`,
  };
  return { ...f, env, signingPort, adminPort, notifyPort };
}

/**
 * Runs `serve` with the good store in a file of the given format, then swaps in every broken store of
 * that format (SIGHUP) and back, with signed requests, notifications and scrapes.
 */
async function serveWithReloads(t: ExecutionContext, f: Fixture, format: 'json' | 'yaml'): Promise<string[]> {
  const seen: string[] = [];
  const store = join(f.dir, `keystore.${format}`);
  writeFileSync(store, GOOD_STORE);
  const serve = await startCli(['serve'], null, { env: { ...f.env, SFD_KEYSTORE_FILE: store }, cwd: f.dir });
  const admin = `http://127.0.0.1:${f.adminPort}`;
  // The other commands start beside this one, so a busy machine may take long to get here.
  const ready = await eventually(async () => (await send(`${admin}/readyz`).catch(() => null))?.status === 200, 60_000);
  if (!ready) t.fail(`serve never became ready; it printed:\n${serve.stderr()}`);
  const signed = await send(`http://127.0.0.1:${f.signingPort}/v1.1/customer/12345`);
  t.is(signed.status, 200, 'signed through the egress proxy');
  seen.push(signed.body.toString());
  for (const [name, text] of Object.entries(STORES).filter(([name]) => name.endsWith(format))) {
    writeFileSync(store, text);
    serve.child.kill('SIGHUP');
    const readyz = await eventually(
      async () => (await send(`${admin}/readyz`)).body.toString().includes('lastError'),
      30_000,
    );
    t.true(readyz, `the failed reload of ${name} shows in /readyz`);
    const answer = await send(`${admin}/readyz`);
    t.is(answer.status, 200, `the last good keys stay in use after ${name}`);
    seen.push(answer.body.toString());
    writeFileSync(store, GOOD_STORE);
    serve.child.kill('SIGHUP');
    t.true(
      await eventually(async () => !(await send(`${admin}/readyz`)).body.toString().includes('lastError'), 30_000),
    );
  }
  const relay = `http://127.0.0.1:${f.notifyPort}/notifications`;
  const event = JSON.stringify({
    id: 'n-1',
    type: 'SYNC_RECORDING_RESULT_EVENT',
    version: 'v1.0',
    timestamp: 1,
    data: {},
  });
  for (const path of [`${relay}/not-the-token-at-all`, `${relay}/${S.notifyToken}`]) {
    const answer = await send(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: event });
    seen.push(answer.body.toString());
  }
  seen.push((await send(`${admin}/metrics`)).body.toString());
  serve.child.kill('SIGTERM');
  await serve.exited;
  seen.push(serve.stdout(), serve.stderr());
  return seen;
}

function printed(run: Finished): string {
  return `${run.stdout}\n${run.stderr}`;
}

for (const level of LOG_LEVELS) {
  test.serial(`at log level ${level} with DEBUG=*, no command prints a secret of any input`, async (t) => {
    t.timeout(300_000);
    const f = await fixture(t, level);
    const run = (args: string[], env: Record<string, string> = f.env): Promise<Finished> =>
      runCli(args, { env, cwd: f.dir });
    const [checks, good, list, listFile, sign, doctor, badCa, yamlServe, jsonServe] = await Promise.all([
      Promise.all(Object.keys(STORES).map((name) => run(['keys', 'check', name]))),
      run(['keys', 'check', 'good.json']),
      run(['keys', 'list']),
      run(['keys', 'list', 'good.json']),
      run(['sign', '--url', `https://${GATEWAY}/v1.1/customer/12345`], { DEBUG: '*', SFD_ENV_FILE: 'sign.env' }),
      run(['doctor']),
      run(['serve'], { ...f.env, SFD_UPSTREAM_CA_FILE: join(f.dir, 'bad-ca.pem') }),
      serveWithReloads(t, f, 'yaml'),
      onOtherPorts(f).then((other) => serveWithReloads(t, other, 'json')),
    ]);
    for (const [i, check] of checks.entries()) {
      t.is(check.code, 1, `${Object.keys(STORES)[i]} is refused`);
      t.regex(check.stderr, /problem/);
    }
    t.is(good.code, 0, printed(good));
    t.is(list.code, 0, printed(list));
    t.regex(list.stdout, /AKLEAK0002/);
    t.is(listFile.code, 0, printed(listFile));
    t.regex(listFile.stdout, /AKLEAK0002/);
    t.is(sign.code, 0, printed(sign));
    t.regex(doctor.stdout, /egress proxy: .* opened a tunnel/);
    t.is(badCa.code, 2);
    t.regex(badCa.stderr, /SFD_UPSTREAM_CA_FILE: the certificate at line 1 is not a valid PEM certificate/);
    const all = [...checks, good, list, listFile, sign, doctor, badCa]
      .map(printed)
      .concat(yamlServe, jsonServe)
      .join('\n');
    // The scan sees something: with DEBUG=*, the egress proxy's library wrote its debug lines.
    t.regex(all, /https-proxy-agent/);
    for (const [place, secret] of Object.entries(S))
      t.false(all.includes(secret), `the secret from ${place} appears in the output`);
  });
}

test('the fixture files carry every secret they claim to', (t) => {
  const texts = [...Object.values(STORES), GOOD_STORE].join('\n');
  for (const place of [
    'yamlTag',
    'yamlAnchor',
    'yamlDuplicate',
    'yamlWrongType',
    'yamlUnclosed',
    'jsonDuplicate',
    'jsonSyntax',
    'jsonWrongType',
    'keyStore',
  ] as const) {
    t.true(texts.includes(S[place]), place);
  }
});
