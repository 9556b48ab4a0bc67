// `sfd-sidecar doctor` against the emulator set to each signature form names that form, and against
// broken setups names the problem and the fix.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { runDoctor, type DoctorReport } from '../../src/doctor/run-doctor.js';
import { readRegularFile } from '../../src/files/regular-file.js';
import { checkTcp } from '../../src/doctor/network-checks.js';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import type { AcceptedForm } from '../../src/emulator/verifier.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onRequestHead, REFUSING_ADDRESS, startFaultyUpstream } from '../helpers/faulty-upstream.js';
import { toUpstream } from '../helpers/stack.js';
import { TEST_KEY_ID, TEST_SECRET } from '../helpers/secrets.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { selfSignedCertificate, startSelfSignedServer, startTlsFront } from '../helpers/tls-server.js';

const deps = {
  readFile: (path: string) => readFileSync(path, 'utf8'),
  readFileAsync: readRegularFile,
  production: false,
  now: Date.now,
  timeoutMs: 2000,
};

async function emulatorWith(t: ExecutionContext, form: AcceptedForm, now = Date.now) {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([[TEST_KEY_ID, { secret: Buffer.from(TEST_SECRET), customerId: 12345 }]]),
    form,
    now,
  });
  t.teardown(() => emulator.close());
  return emulator;
}

const settings = (upstream: string, extra: Record<string, string> = {}) => ({
  SFD_UPSTREAM_URL: upstream,
  SFD_ACCESS_KEY_ID: TEST_KEY_ID,
  SFD_ACCESS_KEY_SECRET: TEST_SECRET,
  ...extra,
});

const verdictOf = (report: DoctorReport, check: string): string | undefined =>
  report.checks.find((c) => c.check === check)?.verdict;

const forms: AcceptedForm[] = [
  { scheme: '1', shape: 'spec', placement: 'body' },
  { scheme: '1', shape: 'spec', placement: 'uri' },
  { scheme: '2', shape: 'spec', placement: 'body' },
  { scheme: '2', shape: 'no-extra-lf', placement: 'uri' },
  { scheme: '2', shape: 'no-keyid', placement: 'body' },
  { scheme: '2', shape: 'no-keyid-no-extra-lf', placement: 'uri' },
];
for (const form of forms) {
  test(
    `doctor names scheme ${form.scheme}${form.scheme === '2' ? ` ${form.shape}` : ''} with placement ` +
      `${form.placement} when the gateway accepts only that`,
    async (t) => {
      const emulator = await emulatorWith(t, form);
      const report = await runDoctor(settings(emulator.url), deps);
      t.like(report.recommendation, {
        signatureVersion: form.scheme,
        queryPlacement: form.placement,
        ...(form.scheme === '2' ? { v2StringShape: form.shape } : {}),
      });
      const configuredMatches = form.scheme === '2' && form.shape === 'spec' && form.placement === 'body';
      t.is(verdictOf(report, 'settings'), configuredMatches ? 'ok' : 'fail');
      t.is(report.ok, configuredMatches);
      if (!configuredMatches)
        t.regex(
          report.checks.find((c) => c.check === 'settings')!.fix!,
          new RegExp(`SFD_SIGNATURE_VERSION=${form.scheme}`),
        );
      t.false(JSON.stringify(report).includes(TEST_SECRET));
    },
  );
}

/**
 * A gateway that picks the scheme from X-SFD-Signature-Version, so that it accepts
 * scheme 1 and one scheme 2 shape: two real emulators behind a router that reads that header.
 */
async function twoSchemeGateway(t: ExecutionContext) {
  const scheme2 = await emulatorWith(t, { scheme: '2', shape: 'spec', placement: 'body' });
  const scheme1 = await emulatorWith(t, { scheme: '1', shape: 'spec', placement: 'body' });
  const router = http.createServer((req, res) => {
    const target = new URL(req.headers['x-sfd-signature-version'] === undefined ? scheme1.url : scheme2.url);
    const forwarded = http.request(
      { hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => router.listen(0, '127.0.0.1', resolve));
  t.teardown(() => router.close());
  return `http://127.0.0.1:${(router.address() as AddressInfo).port}`;
}

test(
  'a gateway that accepts scheme 1 and the configured scheme 2 keeps the configured form, and so does one ' +
    'configured for scheme 1',
  async (t) => {
    const gateway = await twoSchemeGateway(t);
    const report = await runDoctor(settings(gateway), deps);
    t.regex(
      report.checks.find((c) => c.check === 'signature form')!.detail,
      /^accepted: scheme 1, scheme 2, shape spec /,
    );
    t.is(verdictOf(report, 'settings'), 'ok');
    t.true(report.ok);
    t.like(report.recommendation, { signatureVersion: '2', v2StringShape: 'spec', queryPlacement: 'body' });
    const scheme1 = await runDoctor(settings(gateway, { SFD_SIGNATURE_VERSION: '1' }), deps);
    t.is(verdictOf(scheme1, 'settings'), 'ok');
    t.like(scheme1.recommendation, { signatureVersion: '1' });
  },
);

test('a gateway that answers 101 is reported as giving no answer, not left waiting', async (t) => {
  const upstream = await startFaultyUpstream(t, (socket) =>
    onRequestHead(socket, () =>
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n'),
    ),
  );
  const report = await runDoctor(settings(upstream.url), deps);
  t.is(verdictOf(report, 'signature form'), 'fail');
  t.regex(report.checks.find((c) => c.check === 'signature form')!.detail, /switched protocols \(101\)/);
});

test('an unknown key id is named, with the fix', async (t) => {
  const emulator = await emulatorWith(t, { scheme: '2', shape: 'spec', placement: 'body' });
  const report = await runDoctor(settings(emulator.url, { SFD_ACCESS_KEY_ID: 'AKWRONG' }), deps);
  t.false(report.ok);
  const check = report.checks.find((c) => c.check === 'signature form')!;
  t.regex(check.detail, /AccessKeyId\.Invalid/);
  t.regex(check.fix!, /does not know AKWRONG/);
});

test('a wrong secret: every form refused', async (t) => {
  const emulator = await emulatorWith(t, { scheme: '2', shape: 'spec', placement: 'body' });
  const report = await runDoctor(settings(emulator.url, { SFD_ACCESS_KEY_SECRET: 'not-the-secret' }), deps);
  t.is(verdictOf(report, 'signature form'), 'fail');
  t.regex(report.checks.find((c) => c.check === 'signature form')!.fix!, /secret does not belong/);
});

test('a secret file with spaces at its end: the spaces are named as the likely cause, never the secret', async (t) => {
  const emulator = await emulatorWith(t, { scheme: '2', shape: 'spec', placement: 'body' });
  const dir = mkdtempSync(join(tmpdir(), 'sfd-doctor-secret-'));
  writeFileSync(join(dir, 'secret'), `${TEST_SECRET}  \n`);
  const env = settings(emulator.url, { SFD_ACCESS_KEY_SECRET_FILE: join(dir, 'secret') });
  delete (env as Record<string, string | undefined>).SFD_ACCESS_KEY_SECRET;
  const report = await runDoctor(env, deps);
  const check = report.checks.find((c) => c.check === 'signature form')!;
  t.is(check.verdict, 'fail');
  t.regex(check.fix!, /likely the secret itself: .*2 whitespace characters at its end/);
  t.false(JSON.stringify(report).includes(TEST_SECRET));
});

test('clock skew: 20 minutes is a warning, two hours a failure', async (t) => {
  const ahead20 = await emulatorWith(
    t,
    { scheme: '2', shape: 'spec', placement: 'body' },
    () => Date.now() + 20 * 60_000,
  );
  const warned = await runDoctor(settings(ahead20.url), deps);
  t.is(verdictOf(warned, 'clock'), 'warn');
  t.true(warned.ok);
  const ahead2h = await emulatorWith(
    t,
    { scheme: '2', shape: 'spec', placement: 'body' },
    () => Date.now() + 2 * 3_600_000,
  );
  const failed = await runDoctor(settings(ahead2h.url), deps);
  t.is(verdictOf(failed, 'clock'), 'fail');
  t.regex(failed.checks.find((c) => c.check === 'signature form')!.detail, /Signature\.Expired/);
});

test('an unreachable upstream fails at TCP', async (t) => {
  const { port } = REFUSING_ADDRESS;
  const report = await runDoctor(settings(`http://127.0.0.1:${port}`), deps);
  t.is(verdictOf(report, 'tcp'), 'fail');
  t.regex(report.checks.find((c) => c.check === 'tcp')!.detail, /ECONNREFUSED/);
});

test(
  'a refusal waiting when the process resumes from a pause longer than the timeout is reported as the refusal, ' +
    'not as a timeout',
  async (t) => {
    // A throttled container can pause the process past the check's timeout; the answer the network
    // already gave must win over the timer that fired late.
    const verdict = checkTcp(toUpstream(`http://127.0.0.1:${REFUSING_ADDRESS.port}`), 50);
    const pausedUntil = Date.now() + 300;
    while (Date.now() < pausedUntil); // the pause: the event loop runs nothing meanwhile
    const result = await verdict;
    t.is(result.verdict, 'fail');
    t.regex(result.detail, /ECONNREFUSED/);
  },
);

test('an unresolvable host fails at DNS', async (t) => {
  const report = await runDoctor(settings('https://no-such-host.invalid'), deps);
  t.is(verdictOf(report, 'dns'), 'fail');
});

test(
  'an untrusted certificate fails at TLS with the ' + 'CA-file fix; trusting it with SFD_UPSTREAM_CA_FILE ' + 'passes',
  async (t) => {
    const server = await startSelfSignedServer(t, 'localhost');
    const untrusted = await runDoctor(settings(`https://localhost:${server.port}`), deps);
    t.is(verdictOf(untrusted, 'tls'), 'fail');
    t.regex(untrusted.checks.find((c) => c.check === 'tls')!.fix!, /SFD_UPSTREAM_CA_FILE/);
    const trusted = await runDoctor(
      settings(`https://localhost:${server.port}`, { SFD_UPSTREAM_CA_FILE: server.certFile }),
      deps,
    );
    t.is(verdictOf(trusted, 'tls'), 'ok');
    t.regex(trusted.checks.find((c) => c.check === 'tls')!.detail, /certificate for localhost/);
  },
);

test(
  'a port that does not speak TLS, or a connection cut in the handshake, is a failed handshake, not an untrusted ' +
    'certificate',
  async (t) => {
    // A plain HTTP server answers a ClientHello, which is no request, with a 400.
    const plain = await startFaultyUpstream(t, (socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')),
    );
    const cut = await startFaultyUpstream(t, (socket) => socket.once('data', () => socket.resetAndDestroy()));
    for (const { upstream, code } of [
      { upstream: plain, code: /EPROTO|WRONG_VERSION/ },
      { upstream: cut, code: /ECONNRESET/ },
    ]) {
      const report = await runDoctor(settings(`https://127.0.0.1:${upstream.port}`), deps);
      const tls = report.checks.find((c) => c.check === 'tls')!;
      t.is(tls.verdict, 'fail');
      t.regex(tls.detail, /handshake with 127\.0\.0\.1:\d+ failed before any certificate/);
      t.regex(tls.detail, code);
      t.notRegex(tls.fix!, /SFD_UPSTREAM_CA_FILE/);
    }
  },
);

test('invalid configuration is reported as the first failed check', async (t) => {
  const report = await runDoctor(
    { SFD_UPSTREAM_URL: 'ftp://x', SFD_ACCESS_KEY_ID: TEST_KEY_ID, SFD_ACCESS_KEY_SECRET: TEST_SECRET },
    deps,
  );
  t.is(report.checks[0]?.check, 'configuration');
  t.is(report.checks[0]?.verdict, 'fail');
  t.false(JSON.stringify(report).includes(TEST_SECRET));
});

/** The emulator behind TLS as gateway.test, which only the proxy resolves, and a proxy in front. */
async function gatewayBehindProxy(
  t: ExecutionContext,
  proxyOptions: { credentials?: string; refuse?: boolean; tls?: boolean } = {},
) {
  const emulator = await emulatorWith(t, { scheme: '2', shape: 'no-keyid', placement: 'body' });
  const front = await startTlsFront(t, emulator.address.port, 'gateway.test');
  const proxyCertificate = proxyOptions.tls ? await selfSignedCertificate('egress proxy', 'IP:127.0.0.1') : null;
  const proxy = await startConnectProxy(t, {
    hosts: { 'gateway.test': '127.0.0.1' },
    ...(proxyOptions.credentials ? { credentials: proxyOptions.credentials } : {}),
    ...(proxyOptions.refuse ? { refuse: [`gateway.test:${front.port}`] } : {}),
    ...(proxyCertificate
      ? { tls: { key: readFileSync(proxyCertificate.keyFile), cert: readFileSync(proxyCertificate.certFile) } }
      : {}),
  });
  // One CA file for both, as SFD_UPSTREAM_CA_FILE takes it.
  const certFile = join(mkdtempSync(join(tmpdir(), 'sfd-ca-')), 'ca.pem');
  writeFileSync(
    certFile,
    readFileSync(front.certFile, 'utf8') + (proxyCertificate ? readFileSync(proxyCertificate.certFile, 'utf8') : ''),
  );
  return { proxy, upstream: `https://gateway.test:${front.port}`, certFile };
}

test(
  'behind an egress proxy: the tunnel, TLS inside it ' + 'and the signature probes all go through the proxy',
  async (t) => {
    const { proxy, upstream, certFile } = await gatewayBehindProxy(t, { credentials: 'doctor:hunter2-proxy' });
    const report = await runDoctor(
      settings(upstream, {
        HTTPS_PROXY: `http://doctor:hunter2-proxy@127.0.0.1:${proxy.port}`,
        SFD_UPSTREAM_CA_FILE: certFile,
      }),
      deps,
    );
    t.deepEqual(
      report.checks.map((c) => c.check).filter((c) => ['dns', 'tcp', 'egress proxy', 'tls'].includes(c)),
      ['egress proxy', 'tls'],
    );
    t.regex(
      report.checks.find((c) => c.check === 'egress proxy')!.detail,
      /^http:\/\/127\.0\.0\.1:\d+ \(with credentials\) opened a tunnel to gateway\.test:\d+ in \d+ ms$/,
    );
    t.regex(report.checks.find((c) => c.check === 'tls')!.detail, /certificate for gateway\.test/);
    t.like(report.recommendation, { signatureVersion: '2', v2StringShape: 'no-keyid' });
    t.true(
      proxy.tunnels.length >= 3,
      `the tunnel check and at least two probes crossed the proxy (${proxy.tunnels.length})`,
    );
    t.false(JSON.stringify(report).includes('hunter2-proxy'));
  },
);

test(
  'behind an https:// egress proxy: TLS to the proxy is ' + 'checked against the CA file, as the sidecar checks it',
  async (t) => {
    const { proxy, upstream, certFile } = await gatewayBehindProxy(t, { tls: true });
    t.true(proxy.url.startsWith('https://'));
    const report = await runDoctor(
      settings(upstream, { SFD_UPSTREAM_PROXY: proxy.url, SFD_UPSTREAM_CA_FILE: certFile }),
      deps,
    );
    t.is(verdictOf(report, 'egress proxy'), 'ok');
    t.is(verdictOf(report, 'tls'), 'ok');
    t.like(report.recommendation, { signatureVersion: '2', v2StringShape: 'no-keyid' });
    const untrusted = await runDoctor(settings(upstream, { SFD_UPSTREAM_PROXY: proxy.url }), deps);
    const check = untrusted.checks.find((c) => c.check === 'egress proxy')!;
    t.is(check.verdict, 'fail');
    t.regex(check.detail, /cannot reach https:\/\/127\.0\.0\.1:\d+ \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
    t.regex(check.fix!, /put its CA in SFD_UPSTREAM_CA_FILE/);
  },
);

test('behind an egress proxy that wants credentials, or refuses the gateway: the status and the fix', async (t) => {
  const wantsCredentials = await gatewayBehindProxy(t, { credentials: 'doctor:hunter2-proxy' });
  const noCredentials = await runDoctor(
    settings(wantsCredentials.upstream, { SFD_UPSTREAM_PROXY: wantsCredentials.proxy.url }),
    deps,
  );
  const check407 = noCredentials.checks.find((c) => c.check === 'egress proxy')!;
  t.is(check407.verdict, 'fail');
  t.regex(check407.detail, /refused the tunnel to gateway\.test:\d+ with 407 Proxy Authentication Required/);
  t.regex(check407.fix!, /SFD_UPSTREAM_PROXY to http:\/\/user:password@host:port/);
  const refusing = await gatewayBehindProxy(t, { refuse: true });
  const refused = await runDoctor(settings(refusing.upstream, { SFD_UPSTREAM_PROXY: refusing.proxy.url }), deps);
  const check403 = refused.checks.find((c) => c.check === 'egress proxy')!;
  t.regex(check403.detail, /with 403 Forbidden/);
  t.regex(check403.fix!, /allow gateway\.test:\d+, or.*SFD_UPSTREAM_NO_PROXY/);
  const unreachable = await runDoctor(
    settings(refusing.upstream, { SFD_UPSTREAM_PROXY: `http://127.0.0.1:${REFUSING_ADDRESS.port}` }),
    deps,
  );
  t.regex(
    unreachable.checks.find((c) => c.check === 'egress proxy')!.detail,
    /cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
  );
  t.false(unreachable.ok);
});

test('an HTTPS_PROXY the sidecar cannot use is a warning, and the checks go on directly', async (t) => {
  const emulator = await emulatorWith(t, { scheme: '2', shape: 'spec', placement: 'body' });
  const report = await runDoctor(
    settings(emulator.url, { HTTPS_PROXY: 'socks5://me:hunter2-proxy@proxy.corp:1080' }),
    deps,
  );
  t.is(verdictOf(report, 'egress proxy'), 'warn');
  t.regex(report.checks.find((c) => c.check === 'egress proxy')!.fix!, /set SFD_UPSTREAM_PROXY/);
  t.is(verdictOf(report, 'tcp'), 'ok');
  t.true(report.ok);
  t.false(JSON.stringify(report).includes('hunter2-proxy'));
});
