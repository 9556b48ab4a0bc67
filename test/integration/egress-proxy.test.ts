// The egress proxy (SFD_UPSTREAM_PROXY, or HTTPS_PROXY): an HTTPS gateway that only the proxy can
// reach is signed for through a CONNECT tunnel with TLS inside it; the proxy sees neither signature
// nor key id, tunnels are reused, a refused tunnel is the sidecar's 502 (never the proxy's page
// passed off as the gateway's answer), and loopback or NO_PROXY upstreams connect directly.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import test, { type ExecutionContext } from 'ava';
import { readEgressProxy, type EgressProxy } from '../../src/config/egress-proxy.js';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';
import { SettingReader, type SettingValues } from '../../src/config/setting-reader.js';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { agentTrust } from '../../src/outbound/trusted-certificates.js';
import { createTunnelAgent } from '../../src/outbound/tunnel-agent.js';
import { upstreamAgentOptions } from '../../src/proxy/upstream-agent-options.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { REFUSING_ADDRESS } from '../helpers/faulty-upstream.js';
import { send } from '../helpers/http.js';
import { eventually } from '../helpers/time.js';
import { TEST_KEY_ID, TEST_SECRET } from '../helpers/secrets.js';
import { startStack, startTestSidecar, toUpstream } from '../helpers/stack.js';
import { selfSignedCertificate, startTlsFront } from '../helpers/tls-server.js';

const PROXY_USER = 'egress-user';
const PROXY_PASSWORD = 'egress-proxy-password-6b4d';
/** A name the test machine cannot resolve: only the proxy knows where it is. */
const GATEWAY = 'gateway.test';

function egressProxy(values: SettingValues): EgressProxy {
  const reader = new SettingReader(values, { readFile: (path) => readFileSync(path, 'utf8') });
  const { proxy } = readEgressProxy(reader);
  reader.assertValid();
  if (!proxy) throw new Error('no egress proxy in these settings');
  return proxy;
}

/** The emulator behind TLS for GATEWAY, a proxy that resolves GATEWAY, and a sidecar configured with both. */
async function gatewayBehindProxy(
  t: ExecutionContext,
  proxyCredentials: string | undefined,
  sidecarProxyUrl: (proxy: ConnectProxy) => string,
  upstreamMaxSockets?: number,
) {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([[TEST_KEY_ID, { secret: Buffer.from(TEST_SECRET), customerId: 12345 }]]),
  });
  t.teardown(() => emulator.close());
  const front = await startTlsFront(t, emulator.address.port, GATEWAY);
  const proxy = await startConnectProxy(t, {
    hosts: { [GATEWAY]: '127.0.0.1' },
    ...(proxyCredentials ? { credentials: proxyCredentials } : {}),
  });
  const sidecar = await startTestSidecar(t, {
    defaultUpstream: toUpstream(`https://${GATEWAY}:${front.port}`),
    upstreamCa: readFileSync(front.certFile, 'utf8'),
    egressProxy: egressProxy({ HTTPS_PROXY: sidecarProxyUrl(proxy) }),
    ...(upstreamMaxSockets === undefined ? {} : { limits: { ...DEFAULT_LIMITS, upstreamMaxSockets } }),
  });
  return { emulator, proxy, front, ...sidecar };
}

test(
  'HTTPS_PROXY: signed requests reach a gateway only the proxy can resolve, in one reused tunnel the proxy ' +
    'cannot read',
  async (t) => {
    const { proxy, front, proxyUrl, logs } = await gatewayBehindProxy(
      t,
      `${PROXY_USER}:${PROXY_PASSWORD}`,
      (p) => `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${p.port}`,
    );
    for (let i = 0; i < 10; i += 1) {
      const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
      t.is(answer.status, 200, answer.body.toString());
      t.like(answer.json(), { id: 12345, name: 'Demo Customer' });
      t.truthy(answer.headers['x-sfd-trace-id']);
    }
    t.is(proxy.tunnels.length, 1, 'ten requests in a row share one tunnel');
    t.is(proxy.tunnels[0]!.target, `${GATEWAY}:${front.port}`);
    t.is(
      proxy.tunnels[0]!.proxyAuthorization,
      `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`,
    );
    const seenByProxy = Buffer.concat(proxy.tunnels[0]!.sent).toString('latin1');
    t.true(seenByProxy.length > 1000, 'the requests crossed the tunnel');
    for (const plain of ['HMAC-SHA256', TEST_KEY_ID, 'X-SFD-Nonce', '/v1.1/customer'])
      t.false(seenByProxy.includes(plain), plain);
    const listening = logs.lines().find((line) => line.event === 'listening')!;
    t.is(listening.egressProxy, `http://127.0.0.1:${proxy.port} (with credentials)`);
    t.is(listening.egressProxyFrom, 'HTTPS_PROXY');
    t.is(listening.upstreamThroughProxy, true);
    t.false(logs.text().includes(PROXY_PASSWORD));
  },
);

test(
  'tunnels are bounded by SFD_UPSTREAM_MAX_SOCKETS, also while they are being opened, and every request is ' +
    'answered',
  async (t) => {
    const { proxy, proxyUrl, sidecar } = await gatewayBehindProxy(t, undefined, (p) => p.url, 3);
    const answers = await Promise.all(Array.from({ length: 12 }, () => send(`${proxyUrl}/v1.1/customer/12345`)));
    t.deepEqual(
      answers.map((a) => a.status),
      Array<number>(12).fill(200),
    );
    t.true(proxy.tunnels.length >= 1 && proxy.tunnels.length <= 3, `${proxy.tunnels.length} tunnels`);
    t.true(sidecar.forwarders.connections().idle <= 3);
    const before = proxy.tunnels.length;
    for (let i = 0; i < 5; i += 1) t.is((await send(`${proxyUrl}/v1.1/customer/12345`)).status, 200);
    t.is(proxy.tunnels.length, before, 'later requests reuse the open tunnels');
  },
);

test(
  'a proxy that wants credentials: 502 Sidecar.UpstreamUnreachable naming 407, not the proxy page, and no retry ' +
    'storm',
  async (t) => {
    const { proxy, proxyUrl, logs } = await gatewayBehindProxy(t, `${PROXY_USER}:${PROXY_PASSWORD}`, (p) => p.url);
    const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
    t.is(answer.status, 502);
    t.is(answer.json().code, 'Sidecar.UpstreamUnreachable');
    t.false(answer.body.toString().includes('proxy says no'));
    t.is(proxy.refusals.length, 1, 'a refusal is not retried');
    t.is(proxy.refusals[0]!.status, 407);
    t.regex(logs.text(), /refused the tunnel with 407 Proxy Authentication Required: the proxy wants credentials/);
  },
);

test('a proxy that refuses the gateway (403): 502, and the next request asks again', async (t) => {
  const emulator = await startEmulator({ listen: { host: '127.0.0.1', port: 0 } });
  t.teardown(() => emulator.close());
  const front = await startTlsFront(t, emulator.address.port, GATEWAY);
  const proxy = await startConnectProxy(t, { hosts: { [GATEWAY]: '127.0.0.1' }, refuse: [`${GATEWAY}:${front.port}`] });
  const { proxyUrl, logs } = await startTestSidecar(t, {
    defaultUpstream: toUpstream(`https://${GATEWAY}:${front.port}`),
    upstreamCa: readFileSync(front.certFile, 'utf8'),
    egressProxy: egressProxy({ SFD_UPSTREAM_PROXY: proxy.url }),
  });
  for (let i = 0; i < 2; i += 1) {
    const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
    t.is(answer.status, 502);
    t.is(answer.json().code, 'Sidecar.UpstreamUnreachable');
  }
  t.deepEqual(
    proxy.refusals.map((r) => r.status),
    [403, 403],
  );
  t.regex(logs.text(), /refused the tunnel with 403 Forbidden/);
});

test('an unreachable proxy: 502 after the retries, the proxy named in the log', async (t) => {
  const { proxyUrl, logs } = await startTestSidecar(t, {
    defaultUpstream: toUpstream(`https://${GATEWAY}`),
    egressProxy: egressProxy({ SFD_UPSTREAM_PROXY: `http://${REFUSING_ADDRESS.host}:${REFUSING_ADDRESS.port}` }),
  });
  const answer = await send(`${proxyUrl}/v1.1/customer/12345`);
  t.is(answer.status, 502);
  t.is(answer.json().code, 'Sidecar.UpstreamUnreachable');
  t.is(logs.lines().filter((l) => l.event === 'retrying after a connection failure').length, 2);
  t.regex(logs.text(), /ECONNREFUSED 127\.0\.0\.1:1\b/);
});

test('loopback, plain-HTTP and NO_PROXY upstreams connect directly: the proxy sees nothing', async (t) => {
  const proxy = await startConnectProxy(t);
  const { proxyUrl, logs } = await startStack(t, {
    sidecar: { egressProxy: egressProxy({ HTTPS_PROXY: proxy.url, NO_PROXY: 'internal.example,10.0.0.0/8' }) },
  });
  t.is((await send(`${proxyUrl}/v1.1/customer/12345`)).status, 200);
  t.is(proxy.tunnels.length, 0);
  t.is(logs.lines().find((line) => line.event === 'listening')!.upstreamThroughProxy, false);
});

test(
  'a cluster NO_PROXY entry the sidecar cannot read ' + 'is skipped with a warning; its own setting is ' + 'strict',
  async (t) => {
    const proxy = await startConnectProxy(t);
    const { logs } = await startStack(t, {
      sidecar: { egressProxy: egressProxy({ HTTPS_PROXY: proxy.url, NO_PROXY: '.svc,bad/entry,10.0.0.0/8' }) },
    });
    const warning = logs
      .lines()
      .find((line) => line.level === 'warn' && String(line.event).startsWith('skipped entries of NO_PROXY'));
    t.is(warning?.entries, 'bad/entry');
    const error = t.throws(() => egressProxy({ HTTPS_PROXY: proxy.url, SFD_UPSTREAM_NO_PROXY: '.svc,bad/entry' }));
    t.regex(error.message, /SFD_UPSTREAM_NO_PROXY: must be .*"bad\/entry" is none of these/);
  },
);

test('an idle tunnel is closed after the agent idle timeout, as a direct connection is', async (t) => {
  const emulator = await startEmulator({ listen: { host: '127.0.0.1', port: 0 } });
  t.teardown(() => emulator.close());
  const front = await startTlsFront(t, emulator.address.port, GATEWAY);
  const proxy = await startConnectProxy(t, { hosts: { [GATEWAY]: '127.0.0.1' } });
  const agent = createTunnelAgent(
    new URL(proxy.url),
    upstreamAgentOptions(4, 300),
    agentTrust(readFileSync(front.certFile, 'utf8')),
  );
  t.teardown(() => agent.destroy());
  const status = await new Promise<number>((resolve, reject) => {
    https
      .get({ host: GATEWAY, port: front.port, path: '/healthz', agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
      .on('error', reject);
  });
  t.true(status >= 200 && status < 600, 'the gateway answered through the tunnel');
  t.true(await eventually(() => Object.keys(agent.freeSockets).length === 1, 1000), 'the tunnel is kept for reuse');
  // Named without the certificates it trusts (Node joins a `ca` option into the name on every request).
  t.true(Object.keys(agent.freeSockets)[0]!.length < 1000, 'the pool is named without the certificates');
  t.false(proxy.tunnels[0]!.closed, 'kept open for reuse first');
  t.true(await eventually(() => proxy.tunnels[0]!.closed, 3000), 'closed once idle');
  t.deepEqual(Object.keys(agent.freeSockets), []);
});

test(
  'an https:// proxy: TLS to the proxy, checked ' + 'against the same CA file, and TLS to the gateway ' + 'inside it',
  async (t) => {
    const emulator = await startEmulator({
      listen: { host: '127.0.0.1', port: 0 },
      keys: new Map([[TEST_KEY_ID, { secret: Buffer.from(TEST_SECRET), customerId: 12345 }]]),
    });
    t.teardown(() => emulator.close());
    const front = await startTlsFront(t, emulator.address.port, GATEWAY);
    const proxyCertificate = await selfSignedCertificate('egress proxy', 'IP:127.0.0.1');
    const proxy = await startConnectProxy(t, {
      hosts: { [GATEWAY]: '127.0.0.1' },
      tls: { key: readFileSync(proxyCertificate.keyFile), cert: readFileSync(proxyCertificate.certFile) },
    });
    t.true(proxy.url.startsWith('https://127.0.0.1:'));
    const gatewayCa = readFileSync(front.certFile, 'utf8');
    const start = (ca: string) =>
      startTestSidecar(t, {
        defaultUpstream: toUpstream(`https://${GATEWAY}:${front.port}`),
        upstreamCa: ca,
        egressProxy: egressProxy({ SFD_UPSTREAM_PROXY: proxy.url }),
      });
    const both = await start(gatewayCa + readFileSync(proxyCertificate.certFile, 'utf8'));
    const answer = await send(`${both.proxyUrl}/v1.1/customer/12345`);
    t.is(answer.status, 200, answer.body.toString());
    t.like(answer.json(), { id: 12345 });
    t.is(proxy.tunnels.length, 1);
    const gatewayOnly = await start(gatewayCa);
    t.is(
      (await send(`${gatewayOnly.proxyUrl}/v1.1/customer/12345`)).status,
      502,
      'a proxy whose certificate is not trusted gets nothing',
    );
    t.regex(gatewayOnly.logs.text(), /self.signed certificate/i);
    t.is(proxy.tunnels.length, 1);
  },
);
