// Attacks on the operation gate (docs/keystore.md, "Operations") by a caller of the signing listener, written
// by a reader told only what the rule promises: a profile signs only the operations its key store (narrowed
// by SFD_OPERATIONS) allows; a call outside is answered 403 Sidecar.OperationForbidden and is never signed
// nor forwarded; a method override header is refused where a limit applies; nothing relaxes a key store limit.
// Each test sends its input through real sockets (raw bytes where a client would normalise them) to the real
// sidecar, whose upstream is a tap: it records the bytes the sidecar sent and hands them to a lenient gateway
// (node:http with insecureHTTPParser) that records every request it parsed. Each test asserts the secure
// outcome: the gateway sees nothing, or only calls the limit allows however a lenient gateway reads their
// path. A test that fails is a finding; its comment says what getting through would have achieved.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { parseOperationsSetting } from '../../src/operations/operations-setting.js';
import { rawExchange, send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';
import { eventually } from '../helpers/time.js';

const BILLING = { accessKeyId: 'AKGATEBILLING1', secret: 'gate-billing-secret-0123456789' };
const REPORTS = { accessKeyId: 'AKGATEREPORTS1', secret: 'gate-reports-secret-0123456789' };
const UNRESERVED = '[A-Za-z0-9._~-]+';
/** The limit most tests use: customer reads, and reads of one report or of one thing's summary. */
const READS = ['getCustomer', { methods: ['GET'], paths: ['/v1/reports/*', '/v1/*/summary'] }];
const DELETE_RATE_LIMIT = '/cdn/v1.0/services/9/rateLimit';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: readonly string[];
  readonly trailers: Record<string, string | undefined>;
  readonly body: string;
  /** The access key id of the Authorization the sidecar set, or '' when unsigned. */
  readonly keyId: string;
}

interface Gateway {
  readonly url: string;
  readonly port: number;
  /** Every request the lenient gateway parsed. */
  readonly seen: Seen[];
  /** Every byte that reached the gateway's port, as latin1. */
  raw(): string;
}

/** A lenient gateway behind a tap that records the bytes the sidecar sends it. */
async function gateway(t: ExecutionContext): Promise<Gateway> {
  const seen: Seen[] = [];
  const server = http.createServer({ insecureHTTPParser: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const authorization = req.headers.authorization ?? '';
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: req.rawHeaders,
        trailers: req.trailers,
        body: Buffer.concat(chunks).toString('latin1'),
        keyId: /^HMAC-SHA256 ([^:]+):/.exec(authorization)?.[1] ?? '',
      });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  server.on('upgrade', (req, socket) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      rawHeaders: req.rawHeaders,
      trailers: {},
      body: '',
      keyId: '',
    });
    socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const inner = (server.address() as AddressInfo).port;
  const bytes: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const tap = net.createServer((client) => {
    const upstream = net.connect(inner, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => {
      bytes.push(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const close = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => tap.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    tap.close();
    server.closeAllConnections();
    server.close();
  });
  const port = (tap.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, seen, raw: () => Buffer.concat(bytes).toString('latin1') };
}

interface Profile {
  keys: Record<string, string>[];
  [setting: string]: unknown;
}

async function sidecar(
  t: ExecutionContext,
  upstreamUrl: string,
  profiles: Record<string, Profile>,
  options: { narrowing?: string; profileHeader?: string; allowed?: string[]; defaultProfile?: string } = {},
) {
  const volume = createSecretVolume({ 'keystore.json': keystoreJson(profiles) });
  const narrowing = options.narrowing === undefined ? undefined : parseOperationsSetting(options.narrowing);
  if (narrowing && !narrowing.ok) throw new Error(narrowing.allowed);
  const started = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl,
    defaultProfile: options.defaultProfile ?? 'billing',
    ...(narrowing ? { operations: narrowing.value } : {}),
    ...(options.profileHeader ? { profileHeader: options.profileHeader } : {}),
    ...(options.allowed ? { allowedProfiles: new Set(options.allowed) } : {}),
  });
  const port = Number(new URL(started.proxyUrl).port);
  // The first request compiles the sidecar's path, which on a busy machine outlasts the attacks' short
  // idle bound: a call refused whatever the profile allows (a dot segment), so nothing reaches the
  // gateway, warms it first.
  const warm = await rawExchange(port, closing('GET', '/v1/../warm-up'), 30_000);
  if (![400, 403].includes(statuses(warm)[0] ?? 0))
    throw new Error(`the warm-up was not refused: ${warm.slice(0, 200)}`);
  return { ...started, volume, port };
}

/** One request as written, closing the connection after it. */
function request(method: string, target: string, headers: string[] = [], body = '', version = 'HTTP/1.1'): string {
  const lines = [`${method} ${target} ${version}`, 'Host: 127.0.0.1', ...headers];
  if (body !== '' && !headers.some((h) => /^(content-length|transfer-encoding):/i.test(h))) {
    lines.push(`Content-Length: ${Buffer.byteLength(body, 'latin1')}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

const closing = (method: string, target: string, headers: string[] = [], body = ''): string =>
  request(method, target, [...headers, 'Connection: close'], body);

/** The status of every response in a raw exchange, in order. */
const statuses = (raw: string): number[] => [...raw.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));

/**
 * A path as a lenient gateway reads it: the fragment dropped, `\` as `/`, `;` parameters dropped, escapes
 * decoded (twice, as a gateway behind a decoding balancer would), runs of `/` collapsed, dot segments
 * resolved, a trailing `/` dropped.
 */
function lenientPath(url: string): string {
  let path = url.split('#')[0]!.split('?')[0]!;
  for (let i = 0; i < 2; i += 1) {
    try {
      path = decodeURIComponent(path);
    } catch {
      break;
    }
  }
  const out: string[] = [];
  for (const segment of path.replaceAll('\\', '/').split('/')) {
    const plain = segment.split(';')[0]!;
    if (plain === '' || plain === '.') continue;
    if (plain === '..') out.pop();
    else out.push(plain);
  }
  return `/${out.join('/')}`;
}

/**
 * Whether READS allows a call however a gateway reads it: the path as sent is plain (no escapes, dot
 * segments, `;`, `\`, `#`, empty segment), and both the path as sent and the lenient reading are allowed.
 */
function readsAllow(method: string, url: string, prefix = ''): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (!url.startsWith(`${prefix}/`)) return false;
  const path = url.slice(prefix.length).split('?')[0]!;
  if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(path)) return false;
  if (path.split('/').some((s) => s === '.' || s === '..')) return false;
  const allowed = (p: string): boolean =>
    /^\/v1\.[12]\/customer(\/[0-9]+)?$/.test(p) ||
    new RegExp(`^/v1/reports/${UNRESERVED}$`).test(p) ||
    new RegExp(`^/v1/${UNRESERVED}/summary$`).test(p);
  return allowed(path.replace(/\/$/, '')) && allowed(lenientPath(path));
}

const describe = (seen: readonly Seen[]): string => seen.map((s) => `${s.method} ${s.url}`).join(' | ');

/** Asserts nothing at all reached the gateway. */
function nothingReached(t: ExecutionContext, gw: Gateway, input: string): void {
  t.deepEqual(
    gw.seen.map((s) => `${s.method} ${s.url}`),
    [],
    `the gateway received a request for: ${JSON.stringify(input)}`,
  );
  t.is(gw.raw(), '', `bytes reached the gateway for: ${JSON.stringify(input)}`);
}

/** Sends each raw input on its own connection; nothing may reach the gateway; each is refused. */
async function allRefused(t: ExecutionContext, gw: Gateway, port: number, inputs: readonly string[]): Promise<void> {
  for (const input of inputs) {
    const answer = await rawExchange(port, input, 800);
    const status = statuses(answer)[0] ?? 0;
    t.true([400, 403, 405, 431, 505].includes(status), `${status} for ${JSON.stringify(input)}`);
    if (status === 403 && !input.startsWith('HEAD '))
      t.regex(answer, /Sidecar\.OperationForbidden|Sidecar\.ForbiddenTarget|Sidecar\.ProfileForbidden/);
    nothingReached(t, gw, input);
  }
}

/** Sends each input; whatever reached the gateway must be allowed by READS as a lenient gateway reads it. */
async function onlyReadsReach(t: ExecutionContext, gw: Gateway, port: number, inputs: readonly string[], prefix = '') {
  for (const input of inputs) {
    const before = gw.seen.length;
    await rawExchange(port, input, 800);
    const reached = gw.seen.slice(before);
    t.true(
      reached.every((s) => readsAllow(s.method, s.url, prefix) && s.keyId !== ''),
      `${JSON.stringify(input)} reached the gateway as: ${describe(reached)}`,
    );
  }
}

// Dot segments that a wildcard might take as a segment name: `..` and `.` are unreserved characters, so a
// naive `*` matches them, and the gateway then runs GET /v1 (or /summary, or the service's rate limit).
test('dot segments never fill a wildcard', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  await allRefused(t, gw, sc.port, [
    closing('GET', '/v1/reports/..'),
    closing('GET', '/v1/reports/.'),
    closing('GET', '/v1/../summary'),
    closing('GET', '/v1/./summary'),
    closing('GET', '/v1/reports/../reports/..'),
    closing('HEAD', '/v1/reports/..'),
    closing('GET', '/v1/reports/..?x=1'),
    closing('GET', '/v1/reports/%2e%2e'),
    closing('GET', '/v1/reports/.%2e'),
    closing('GET', '/v1/reports/..%2F..%2Fcdn'),
    closing('GET', '/v1/reports/..;'),
    closing('GET', '/v1/reports/..\\..\\cdn'),
    closing('GET', '/v1.1/customer/../../cdn/v1.0/services/9/rateLimit'),
    closing('GET', '/v1.1/customer/1/../../../v1/reports/..'),
  ]);
});

// An empty segment taken as a wildcard's name (`/v1/reports/` or `//summary`) names the collection, or
// collapses into another path on a gateway that merges slashes.
test('an empty segment never fills a wildcard, and doubled slashes do not move a literal', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  await allRefused(t, gw, sc.port, [
    closing('GET', '/v1/reports/'),
    closing('GET', '/v1/reports//'),
    closing('GET', '/v1//summary'),
    closing('GET', '/v1/reports//x'),
    closing('GET', '//v1/reports/x/../../cdn'),
    closing('GET', '/v1//reports/x'),
    closing('GET', '/v1/reports'),
  ]);
  await onlyReadsReach(t, gw, sc.port, [closing('GET', '/v1/reports/2024/'), closing('GET', '//v1/reports/2024')]);
});

// A protocol-relative target `//host:port/path` read as a URL moves the request, with the key, to a host
// the caller chose; the gate would have judged `/path`.
test('a protocol-relative target goes nowhere but the upstream, and only as an allowed call', async (t) => {
  const gw = await gateway(t);
  const elsewhere = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const host = `127.0.0.1:${elsewhere.port}`;
  for (const target of [
    `//${host}/v1.1/customer/1`,
    `//${host}${DELETE_RATE_LIMIT}`,
    `///${host}/v1.1/customer/1`,
    `/\\${host}/v1.1/customer/1`,
  ]) {
    await rawExchange(sc.port, closing('GET', target), 800);
    await rawExchange(sc.port, closing('DELETE', target), 800);
  }
  nothingReached(t, elsewhere, 'protocol-relative');
  t.true(
    gw.seen.every((s) => readsAllow(s.method, s.url)),
    `the gateway received: ${describe(gw.seen)}`,
  );
});

// Absolute-form targets: a URL parser resolves dot segments, `%2e`, `\` and tabs that the origin-form
// judgement would not, so the gate must judge exactly the path it then forwards.
test('absolute-form targets are judged on the path the gateway gets', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const host = `127.0.0.1:${gw.port}`;
  const inputs = [
    `http://${host}${DELETE_RATE_LIMIT}`,
    `HTTP://${host}/v1/reports/%2e%2e/%2e%2e${DELETE_RATE_LIMIT}`,
    `http://${host}/v1/reports/x/..${DELETE_RATE_LIMIT}`,
    `http://${host}/v1/reports/..`,
    `http://${host}/v1/reports/%2E%2E`,
    `http://${host}/v1/reports/a\\..\\..\\cdn`,
    `http://${host}/v1.1/customer/1#/../../..${DELETE_RATE_LIMIT}`,
    `http://${host}?/v1.1/customer/1`,
    `http://${host}`,
    `http://${host}/v1.1/customer/1/..`,
    `http://${host}:80/v1.1/customer/1`,
    `http://${host}./v1.1/customer/1`,
    `http://127.0.0.1:${gw.port}@127.0.0.1:${gw.port}/v1.1/customer/1`,
    `https://${host}/v1/reports/..`,
    `ws://${host}/v1/reports/..`,
  ];
  const requests = inputs.flatMap((target) => [closing('GET', target), closing('DELETE', target)]);
  await onlyReadsReach(t, gw, sc.port, requests);
  // An absolute-form read of an allowed call goes through on the path written.
  const before = gw.seen.length;
  await rawExchange(sc.port, closing('GET', `http://${host}/v1/reports/2024`), 800);
  t.deepEqual(
    gw.seen.slice(before).map((s) => s.url),
    ['/v1/reports/2024'],
  );
});

// A fragment is not sent on the wire by a browser, but a raw caller may: judged without it, a gateway that
// resolves dot segments across `#` would run another call.
test('a fragment does not hide dot segments or another path from the gate', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  await onlyReadsReach(t, gw, sc.port, [
    closing('GET', `/v1.1/customer/1#/../../..${DELETE_RATE_LIMIT}`),
    closing('DELETE', `/v1.1/customer/1#${DELETE_RATE_LIMIT}`),
    closing('GET', '/v1/reports/x#/../..'),
    closing('GET', '/v1/reports/x#'),
    closing('GET', `/v1/reports/%23/../..${DELETE_RATE_LIMIT}`),
    closing('GET', `/v1/reports/x?#/../..${DELETE_RATE_LIMIT}`),
  ]);
  t.true(
    gw.seen.every((s) => !s.url.includes('#')),
    `a fragment reached the gateway: ${describe(gw.seen)}`,
  );
});

// Queries are not part of the judged path; a gateway that takes `?` as a path character, or a `%3F` as a
// query, must not see another path than the one judged.
test('a query cannot carry another path past the gate', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  await onlyReadsReach(t, gw, sc.port, [
    closing('GET', `/v1.1/customer/1?/../../..${DELETE_RATE_LIMIT}`),
    closing('GET', `/v1/reports/x%3F/../..${DELETE_RATE_LIMIT}`),
    closing('GET', `/v1/reports/x%3f`),
    closing('GET', '/v1/reports/x??'),
    closing('DELETE', `/v1.1/customer/1?${DELETE_RATE_LIMIT}`),
    closing('GET', `?${DELETE_RATE_LIMIT}`),
  ]);
});

// Letter case: a case-insensitive gateway runs DELETE .../RATELIMIT as deleteRateLimit; the gate must not
// take an odd spelling for an allowed call either.
test('case variants of paths are not allowed calls', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, {
    billing: { keys: [BILLING], operations: ['getRateLimit', { methods: ['GET'], paths: ['/v1/reports/*'] }] },
  });
  await allRefused(t, gw, sc.port, [
    closing('DELETE', '/cdn/v1.0/services/9/RATELIMIT'),
    closing('DELETE', '/CDN/V1.0/SERVICES/9/RATELIMIT'),
    closing('DELETE', '/cdn/v1.0/services/9/rateLimit/'),
    closing('POST', '/cdn/v1.0/services/9/ratelimit', [], '{}'),
    closing('GET', '/V1/REPORTS/x'),
    closing('GET', '/V1.1/Customer/1'),
  ]);
});

// Methods: a GET rule allows HEAD and nothing else; a lower-case or unknown method a gateway might treat as
// GET (or as a write) is not an allowed call; a HEAD rule does not imply GET.
test('only the methods a rule names (and HEAD for GET) are signed', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, {
    billing: {
      keys: [BILLING],
      operations: [
        'getCustomer',
        'upsertRateLimit',
        { methods: ['GET'], paths: ['/v1/reports/*'] },
        { methods: ['HEAD'], paths: ['/v1/heads/*'] },
      ],
    },
  });
  const inputs: string[] = [];
  for (const method of ['get', 'Get', 'gEt', 'OPTIONS', 'TRACE', 'PURGE', 'QUERY', 'PROPFIND', 'PATCH', 'PUT']) {
    inputs.push(closing(method, '/v1/reports/x'), closing(method, '/v1.1/customer/1'));
  }
  for (const method of ['PUT', 'PATCH', 'DELETE', 'GET']) inputs.push(closing(method, DELETE_RATE_LIMIT, [], '{}'));
  inputs.push(closing('GET', '/v1/heads/x'), closing('OPTIONS', '*'), closing('CONNECT', '127.0.0.1:1'));
  inputs.push(closing('HEAD', '/cdn/v1.0/services/9/rateLimit'));
  await allRefused(t, gw, sc.port, inputs);
  // The allowed ones still go through, to show the refusals are the gate's.
  t.is(statuses(await rawExchange(sc.port, closing('HEAD', '/v1/reports/x'), 800))[0], 200);
  t.is(statuses(await rawExchange(sc.port, closing('HEAD', '/v1/heads/x'), 800))[0], 200);
  t.is(statuses(await rawExchange(sc.port, closing('POST', DELETE_RATE_LIMIT, [], '{}'), 800))[0], 200);
});

// Method override headers, whatever their case or repetition, and where only SFD_OPERATIONS limits the
// profile: a gateway that honours one runs DELETE where GET was judged.
test('method override headers are refused in every spelling, and where only SFD_OPERATIONS limits', async (t) => {
  const gw = await gateway(t);
  const keyStoreLimit = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const narrowed = await sidecar(
    t,
    gw.url,
    { billing: { keys: [BILLING] } },
    {
      narrowing: '{"billing":{"operations":["getCustomer"]}}',
    },
  );
  const headers = [
    ['X-HTTP-Method-Override: DELETE'],
    ['x-http-method-override: DELETE'],
    ['X-HTTP-METHOD: DELETE'],
    ['x-method-override: DELETE'],
    ['X-HTTP-Method-Override: GET'],
    ['X-HTTP-Method-Override:'],
    ['X-Trace: 1', 'X-HTTP-Method-Override: DELETE', 'X-HTTP-Method-Override: GET'],
    ['X-Method-Override:\tDELETE'],
  ];
  for (const sc of [keyStoreLimit, narrowed]) {
    await allRefused(
      t,
      gw,
      sc.port,
      headers.map((h) => closing('GET', '/v1.1/customer/1', h)),
    );
  }
});

// Beyond the letter of the rule (which names three exact headers): a gateway behind CGI or FastCGI (PHP's
// $_SERVER, where `-` and `_` both become `_`, e.g. nginx with `underscores_in_headers on` in front of
// Symfony) reads `X_HTTP_METHOD_OVERRIDE` as the override header, and runs DELETE where GET was judged.
// Whatever reaches the gateway must not carry one.
test('an override header spelt with underscores never reaches the gateway', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  for (const header of [
    'X_HTTP_METHOD_OVERRIDE: DELETE',
    'X-HTTP_Method-Override: DELETE',
    'X_METHOD_OVERRIDE: DELETE',
  ]) {
    await rawExchange(sc.port, closing('GET', '/v1.1/customer/1', [header]), 800);
  }
  const carried = gw.seen.filter((s) =>
    s.rawHeaders.some((h, i) => i % 2 === 0 && /method[-_]override|^x[-_]http[-_]method$/i.test(h)),
  );
  t.deepEqual(
    carried.map((s) => s.rawHeaders.join(': ')),
    [],
    'the gateway received an override header',
  );
});

// The override in a chunked body's trailers, or named by Connection, escapes a check of the head only.
test('an override header in trailers or named by Connection never reaches the gateway', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, {
    billing: { keys: [BILLING], operations: ['upsertRateLimit', 'getCustomer'] },
  });
  const chunked = (trailer: string) =>
    `POST ${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nTrailer: ` +
    `X-HTTP-Method-Override\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n${trailer}\r\n\r\n`;
  await rawExchange(sc.port, chunked('X-HTTP-Method-Override: DELETE'), 800);
  await rawExchange(sc.port, chunked('X-Method-Override: DELETE'), 800);
  await rawExchange(
    sc.port,
    request('GET', '/v1.1/customer/1', ['Connection: close, X-HTTP-Method-Override', 'X-HTTP-Method-Override: DELETE']),
    800,
  );
  const carried = gw.seen.filter(
    (s) =>
      s.rawHeaders.some((h, i) => i % 2 === 0 && /override/i.test(h)) ||
      Object.keys(s.trailers).some((h) => /override/i.test(h)),
  );
  t.deepEqual(carried.map(describeOne), [], 'the gateway received an override header');
  t.notRegex(gw.raw(), /x-(http-)?method-override\s*:/i);
});

// Path override headers: IIS's URL Rewrite, Symfony (X-Original-URL, X-Rewrite-URL when trusted) and nginx
// configurations that route by them run the path in the header instead of the one judged: a profile
// limited to reading customers sends service 1's rate-limit path there, and a gateway honouring it
// deletes the rate limit. Every spelling (case, `_` for `-`, repeated, empty, named by Connection) must be
// refused, or at least never reach the gateway. Control: a profile without a limit forwards the header,
// and the limited profile's call without it goes through.
test('path override headers are refused in every spelling and never reach the gateway', async (t) => {
  const gw = await gateway(t);
  const keyStoreLimit = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const narrowed = await sidecar(
    t,
    gw.url,
    { billing: { keys: [BILLING] } },
    { narrowing: '{"billing":{"operations":["getCustomer"]}}' },
  );
  const headers = [
    [`X-Original-URL: ${DELETE_RATE_LIMIT}`],
    [`x-original-url: ${DELETE_RATE_LIMIT}`],
    [`X-Rewrite-URL: ${DELETE_RATE_LIMIT}`],
    [`X-REWRITE-URL: ${DELETE_RATE_LIMIT}`],
    [`X_ORIGINAL_URL: ${DELETE_RATE_LIMIT}`],
    [`X-Original_URL: ${DELETE_RATE_LIMIT}`],
    [`x_rewrite_url: ${DELETE_RATE_LIMIT}`],
    ['X-Original-URL: /v1.1/customer/1'],
    ['X-Original-URL:'],
    ['X-Trace: 1', `X-Original-URL: ${DELETE_RATE_LIMIT}`, 'X-Original-URL: /v1.1/customer/1'],
    [`X-Rewrite-URL:\t${DELETE_RATE_LIMIT}`],
  ];
  for (const sc of [keyStoreLimit, narrowed]) {
    await allRefused(
      t,
      gw,
      sc.port,
      headers.map((h) => closing('GET', '/v1.1/customer/1', h)),
    );
    await rawExchange(
      sc.port,
      request('GET', '/v1.1/customer/1', ['Connection: close, X-Original-URL', `X-Original-URL: ${DELETE_RATE_LIMIT}`]),
      800,
    );
  }
  nothingReached(t, gw, 'path override headers');
  const control = await sidecar(t, gw.url, { billing: { keys: [BILLING] } });
  t.is(statuses(await rawExchange(keyStoreLimit.port, closing('GET', '/v1.1/customer/1'), 800))[0], 200);
  t.is(statuses(await rawExchange(control.port, closing('GET', '/v1.1/customer/1', headers[0]), 800))[0], 200);
  t.true(
    gw.seen.at(-1)!.rawHeaders.some((h) => /^x-original-url$/i.test(h)),
    'a profile without a limit forwards the header',
  );
});

const describeOne = (s: Seen): string => `${s.method} ${s.url} ${s.rawHeaders.join(',')} ${JSON.stringify(s.trailers)}`;

// Request smuggling: a forbidden request hidden in an allowed one's body, framed so that the sidecar and
// the gateway disagree on where the allowed one ends. The gateway must parse only allowed calls.
test('a forbidden request smuggled in an allowed one never reaches the gateway as a request', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const hidden = `DELETE ${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  const head = `GET /v1.1/customer/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
  const inputs = [
    `${head}Content-Length: ${hidden.length}\r\n\r\n${hidden}`,
    `${head}Content-Length: ${hidden.length}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${hidden}`,
    `${head}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n${hidden}`,
    `${head}Transfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n${hidden}`,
    `${head}Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n${hidden}`,
    `${head}Transfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n${hidden}`,
    `${head}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n${hidden}`,
    `${head}Transfer-Encoding:\x0bchunked\r\n\r\n0\r\n\r\n${hidden}`,
    `${head}Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n${hidden}`,
    `${head}X: y\r\n Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n${hidden}`,
    `${head}Content-Length: 0\r\nContent-Length: ${hidden.length}\r\n\r\n${hidden}`,
    `${head}Content-Length: +${hidden.length}\r\n\r\n${hidden}`,
    `${head}Content-Length: ${hidden.length}, 0\r\n\r\n${hidden}`,
    `${head}Transfer-Encoding: chunked\r\n\r\n${hidden.length.toString(16)};ext=1\r\n${hidden}\r\n0\r\n\r\n`,
    `${head}Transfer-Encoding: chunked\r\n\r\n${hidden.length.toString(16)}\n${hidden}\n0\n\n`,
    `GET /v1.1/customer/1 HTTP/1.1\nHost: 127.0.0.1\nContent-Length: ${hidden.length}\n\n${hidden}`,
    `${head}Content-Length: ${hidden.length}\r\n\r\n${hidden}`.replace('HTTP/1.1', 'HTTP/1.0'),
  ];
  for (const input of inputs) {
    const before = gw.seen.length;
    await rawExchange(sc.port, input, 800);
    const reached = gw.seen.slice(before);
    t.true(
      reached.every((s) => readsAllow(s.method, s.url) && s.keyId !== ''),
      `${JSON.stringify(input)} reached the gateway as: ${describe(reached)}`,
    );
  }
  t.false(
    gw.seen.some((s) => s.method === 'DELETE'),
    `the gateway parsed a DELETE: ${describe(gw.seen)}`,
  );
});

// Pipelining: the second request on a connection, sent in the same packet as an allowed one, is judged on
// its own; a refusal does not let the next request ride through, and the connection does not leak.
test('pipelined requests are each judged', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const allowed = request('GET', '/v1.1/customer/1');
  const forbidden = request('DELETE', DELETE_RATE_LIMIT);
  const forbiddenGet = request('GET', '/v1/reports/..');
  const last = closing('GET', '/v1/reports/x');
  const runs = [
    allowed + forbidden + last,
    forbidden + allowed + last,
    forbidden + forbiddenGet + forbidden + last,
    allowed + request('GET', '/v1.1/customer/1', ['X-HTTP-Method-Override: DELETE']) + last,
    request('GET', '/v1.1/customer/1', [], '{}') + forbidden + last,
  ];
  for (const run of runs) {
    const before = gw.seen.length;
    const answer = await rawExchange(sc.port, run, 1500);
    const reached = gw.seen.slice(before);
    t.true(
      reached.every((s) => readsAllow(s.method, s.url)),
      `pipelined ${JSON.stringify(run)} reached the gateway as: ${describe(reached)}`,
    );
    t.true(statuses(answer).length > 0, 'the sidecar answered');
  }
  // A keep-alive connection that was used for an allowed call then sends a forbidden one later.
  const socket = net.connect(sc.port, '127.0.0.1');
  t.teardown(() => socket.destroy());
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.write(allowed);
  t.true(await eventually(() => statuses(Buffer.concat(received).toString('latin1')).length === 1));
  const before = gw.seen.length;
  socket.write(forbidden);
  t.true(await eventually(() => statuses(Buffer.concat(received).toString('latin1')).length === 2));
  t.deepEqual(statuses(Buffer.concat(received).toString('latin1')), [200, 403]);
  t.deepEqual(describe(gw.seen.slice(before)), '');
});

// HTTP/1.0 and HTTP/0.9 forms, and odd request-line spacing a lenient gateway would split differently.
test('old protocol versions and odd request lines do not pass the gate', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  await allRefused(t, gw, sc.port, [
    `DELETE ${DELETE_RATE_LIMIT} HTTP/1.0\r\n\r\n`,
    `GET /v1/reports/.. HTTP/1.0\r\n\r\n`,
    `DELETE ${DELETE_RATE_LIMIT}\r\n\r\n`,
    `DELETE ${DELETE_RATE_LIMIT} HTTP/2.0\r\nHost: x\r\n\r\n`,
    `GET /v1.1/customer/1 /../../..${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET  ${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET /v1.1/customer/1\t/../../..${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET /v1/reports/x\0/../.. HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET /v1/reports/x\r/../.. HTTP/1.1\r\nHost: x\r\n\r\n`,
  ]);
});

// Non-ASCII bytes: fullwidth `．．` or `／` are not unreserved characters, and a gateway normalising Unicode
// (NFKC) reads them as `..` and `/`.
test('non-ASCII path bytes never fill a wildcard', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
  const inputs = [
    `/v1/reports/${utf8('．．')}`,
    `/v1/reports/${utf8('x／..／..')}`,
    `/v1/reports/${utf8('é')}`,
    '/v1/reports/\xff',
    '/v1/reports/%c0%ae%c0%ae',
    '/v1/reports/%u002e%u002e',
    `/v1/${utf8('ｒｅｐｏｒｔｓ')}/x`,
  ];
  await allRefused(
    t,
    gw,
    sc.port,
    inputs.map((target) => closing('GET', target)),
  );
});

// Very long paths: a matcher that gives up or truncates on a long input must refuse, not allow.
test('very long paths are judged whole', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const long = 'a'.repeat(6000);
  await allRefused(t, gw, sc.port, [
    closing('GET', `/v1/reports/${long}/..`),
    closing('GET', `/v1/reports/${long}/x`),
    closing('GET', `/v1/${'x/'.repeat(3000)}summary`),
    closing('DELETE', `/cdn/v1.0/services/${'9'.repeat(6000)}/rateLimit`),
    closing('GET', `/v1.1/customer/${'1'.repeat(6000)}x`),
    closing('GET', `/v1/reports/${'%2e'.repeat(2000)}`),
  ]);
  await onlyReadsReach(t, gw, sc.port, [closing('GET', `/v1/reports/${long}`)]);
});

// Upgrade: an allowed GET turned into a tunnel would carry any later bytes to the gateway unjudged.
test('an upgrade never opens a tunnel past the gate', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const after = `DELETE ${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  for (const upgrade of ['websocket', 'h2c', 'HTTP/2.0', 'TLS/1.2']) {
    const head = request('GET', '/v1.1/customer/1', [
      'Connection: Upgrade, HTTP2-Settings',
      `Upgrade: ${upgrade}`,
      'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version: 13',
    ]);
    await rawExchange(sc.port, head + after, 1000);
  }
  t.notRegex(gw.raw(), /DELETE \/cdn/, 'the bytes after an upgrade reached the gateway');
  t.false(gw.seen.some((s) => s.method === 'DELETE'));
});

// Hosts: the Host header or an absolute-form authority cannot make the sidecar judge one thing and send
// another; an authority with `@` or another host is refused before anything is signed.
test('Host tricks change nothing the gate judges', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: READS } });
  const host = `127.0.0.1:${gw.port}`;
  await allRefused(t, gw, sc.port, [
    `DELETE ${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: ${host}/v1.1/customer/1?\r\nConnection: close\r\n\r\n`,
    `DELETE http://evil.example${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    `GET http://evil.example/v1.1/customer/1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    `GET http://${host}@evil.example/v1.1/customer/1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    `DELETE ${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n`,
  ]);
});

// Several profiles picked by a header: the limit judged must be the limit of the key that signs. A
// repeated, padded or cased header that is judged as one profile and signed as another would spend the
// other account on a call its limit forbids; a dry run on one profile must not relax another.
test('the profile header cannot judge with one profile and sign with another', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(
    t,
    gw.url,
    {
      billing: { keys: [BILLING], operations: ['getCustomer'] },
      reports: { keys: [REPORTS], operations: [{ methods: ['GET'], paths: ['/v1/reports/*'] }], enforce: false },
      payroll: { keys: [{ accessKeyId: 'AKGATEPAYROLL1', secret: 'gate-payroll-secret-0123456789' }], operations: [] },
    },
    { profileHeader: 'X-SFD-Profile', allowed: ['reports', 'payroll'] },
  );
  const calls = [
    ['DELETE', DELETE_RATE_LIMIT],
    ['GET', '/v1/reports/x'],
    ['GET', '/v1.1/customer/1'],
  ] as const;
  const profileHeaders = [
    [],
    ['X-SFD-Profile: billing'],
    ['X-SFD-Profile: reports'],
    ['X-SFD-Profile: payroll'],
    ['X-SFD-Profile: billing', 'X-SFD-Profile: reports'],
    ['X-SFD-Profile: reports', 'X-SFD-Profile: billing'],
    ['X-SFD-Profile: billing', 'X-SFD-Profile: payroll'],
    ['X-SFD-Profile: payroll', 'x-sfd-profile: billing'],
    ['X-SFD-Profile: billing,reports'],
    ['X-SFD-Profile: Billing'],
    ['X-SFD-Profile:  billing '],
    ['X-SFD-Profile: PAYROLL'],
    ['X-SFD-Profile:'],
    ['X_SFD_Profile: payroll'],
    ['Connection: X-SFD-Profile', 'X-SFD-Profile: payroll'],
  ];
  for (const [method, path] of calls) {
    for (const headers of profileHeaders) await rawExchange(sc.port, closing(method, path, headers), 800);
  }
  const billingSigned = gw.seen.filter((s) => s.keyId === BILLING.accessKeyId);
  t.true(
    billingSigned.every((s) => s.method === 'GET' && /^\/v1\.1\/customer\/1$/.test(s.url)),
    `billing's key signed: ${billingSigned.map(describeOne).join(' | ')}`,
  );
  t.true(billingSigned.length > 0, 'billing signed its allowed call');
  t.true(
    gw.seen.some((s) => s.keyId === REPORTS.accessKeyId && s.method === 'DELETE'),
    "reports' dry run signs outside its limit",
  );
  const payrollSigned = gw.seen.filter((s) => s.keyId === 'AKGATEPAYROLL1');
  t.deepEqual(describe(payrollSigned), '', 'payroll (operations: []) signed something');
  t.true(gw.seen.every((s) => !s.rawHeaders.some((h) => /^x-sfd-profile$/i.test(h))));
});

// A reload that restricts a profile applies to connections opened before it; a store the sidecar cannot
// read afterwards does not lift the limit it had (the last good store stays).
test('a reload applies to open connections, and a bad reload keeps the limit', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING] } });
  const socket = net.connect(sc.port, '127.0.0.1');
  t.teardown(() => socket.destroy());
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const answers = () => statuses(Buffer.concat(received).toString('latin1'));
  socket.write(request('GET', '/v1/reports/x'));
  t.true(await eventually(() => answers().length === 1));
  sc.volume.update({ 'keystore.json': keystoreJson({ billing: { keys: [BILLING], operations: READS } }) });
  t.true(
    await eventually(
      async () => (await send(`${sc.proxyUrl}${DELETE_RATE_LIMIT}`, { method: 'DELETE' })).status === 403,
    ),
  );
  const before = gw.seen.length;
  socket.write(request('DELETE', DELETE_RATE_LIMIT));
  t.true(await eventually(() => answers().length === 2));
  t.deepEqual(answers(), [200, 403]);
  for (const broken of [
    '{"profiles":{"billing":{"keys":[{"accessKeyId":"AKGATEBILLING1","secret":"x"}],"operations":"*"}}}',
    keystoreJson({ billing: { keys: [BILLING], operations: ['getCustomer', 'everything'] } }),
    keystoreJson({ billing: { keys: [BILLING], operations: null } }),
    keystoreJson({ billing: { keys: [BILLING], operations: [{ methods: ['DELETE'] }] } }),
    keystoreJson({ billing: { keys: [BILLING], operations: [{ methods: ['*'], paths: ['/**'] }] } }),
    '{"profiles":',
    '',
  ]) {
    sc.volume.update({ 'keystore.json': broken });
    await sc.reloader.reload('attack');
    const answer = await send(`${sc.proxyUrl}${DELETE_RATE_LIMIT}`, { method: 'DELETE' });
    t.is(answer.status, 403, `after reloading ${broken}`);
  }
  t.deepEqual(describe(gw.seen.slice(before)), '');
});

// A reload race: forbidden calls sent continuously while the store goes from no limit to a limit. Once the
// reload is done, not one more forbidden call may reach the gateway.
test('once a restricting reload is done, no forbidden call in flight is forwarded after it', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING] } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  t.teardown(() => agent.destroy());
  let running = true;
  let reloadedAt = Number.POSITIVE_INFINITY;
  let answeredAfter = 0;
  const forwardedAfter: number[] = [];
  const loops = Array.from({ length: 8 }, async () => {
    while (running) {
      const sent = Date.now();
      const answer = await send(`${sc.proxyUrl}${DELETE_RATE_LIMIT}`, { method: 'DELETE', agent });
      if (sent > reloadedAt) answeredAfter += 1;
      if (answer.status === 200 && sent > reloadedAt) forwardedAfter.push(sent);
    }
  });
  // The race needs forbidden calls in flight when the reload lands: forwarded ones show they are.
  t.true(await eventually(() => gw.seen.length >= 20));
  sc.volume.update({ 'keystore.json': keystoreJson({ billing: { keys: [BILLING], operations: READS } }) });
  await sc.reloader.reload('attack');
  reloadedAt = Date.now();
  t.true(await eventually(() => answeredAfter >= 200));
  running = false;
  await Promise.all(loops);
  t.deepEqual(forwardedAfter, [], 'forbidden calls sent after the reload were forwarded');
});

// With an upstream path prefix the gate judges the path less the prefix; an absolute-form target that
// repeats or escapes the prefix must not reach the gateway outside the allowed calls under it.
test('the upstream path prefix cannot be stepped out of or doubled into another call', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, `${gw.url}/api`, { billing: { keys: [BILLING], operations: READS } });
  const host = `127.0.0.1:${gw.port}`;
  const targets = [
    `/../api${DELETE_RATE_LIMIT}`,
    `/v1/reports/..`,
    `/%2e%2e/v1/reports/x`,
    `http://${host}/api/v1/reports/..`,
    `http://${host}/api/../v1/reports/x`,
    `http://${host}/v1/reports/x`,
    `http://${host}/api/v1/reports/x`,
    `http://${host}/api`,
    `http://${host}/apiv1/reports/x`,
    '/',
    '',
  ];
  await onlyReadsReach(
    t,
    gw,
    sc.port,
    targets.flatMap((target) => [closing('GET', target), closing('DELETE', target)]),
    '/api',
  );
  const before = gw.seen.length;
  t.is(statuses(await rawExchange(sc.port, closing('GET', '/v1/reports/x'), 800))[0], 200);
  t.deepEqual(
    gw.seen.slice(before).map((s) => s.url),
    ['/api/v1/reports/x'],
  );
});

// The intersection of a key store rule and a narrowing's named operation (or the reverse) is only what both
// allow: `/v1.1/customer/abc` matches a `*` rule but is not getCustomer (whose ID is digits).
test('a rule and a named operation intersect to the calls both allow', async (t) => {
  const gw = await gateway(t);
  const wide = { methods: ['GET', 'DELETE'], paths: ['/v1.1/customer/*', '/cdn/v1.0/services/*/rateLimit'] };
  const ruleInStore = await sidecar(
    t,
    gw.url,
    { billing: { keys: [BILLING], operations: [wide] } },
    {
      narrowing: '{"billing":{"operations":["getCustomer","getRateLimit"]}}',
    },
  );
  const namedInStore = await sidecar(
    t,
    gw.url,
    { billing: { keys: [BILLING], operations: ['getCustomer'] } },
    {
      narrowing: JSON.stringify({ billing: { operations: [wide] } }),
    },
  );
  for (const sc of [ruleInStore, namedInStore]) {
    await allRefused(t, gw, sc.port, [
      closing('GET', '/v1.1/customer/abc'),
      closing('DELETE', '/v1.1/customer/1'),
      closing('DELETE', DELETE_RATE_LIMIT),
      closing('GET', '/v1.1/customer/1.0'),
      closing('GET', '/v1.1/customer/-1'),
    ]);
  }
  t.is(statuses(await rawExchange(ruleInStore.port, closing('GET', '/v1.1/customer/1'), 800))[0], 200);
});

// Expect: 100-continue on a forbidden write: refused before the body, nothing forwarded.
test('a forbidden call with Expect: 100-continue is refused before its body', async (t) => {
  const gw = await gateway(t);
  const sc = await sidecar(t, gw.url, { billing: { keys: [BILLING], operations: ['getCustomer'] } });
  const answer = await rawExchange(
    sc.port,
    `POST ${DELETE_RATE_LIMIT} HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n`,
    800,
  );
  t.deepEqual(statuses(answer), [403]);
  nothingReached(t, gw, 'expect');
});

// The refusal's side effects: the body names the operation, the method, the path and the profile and
// never a secret or the key id; the real emulator (which verifies signatures) sees nothing of a refused
// call, whatever X-SFD-* or Authorization headers the caller adds.
test('a refusal names the call and profile, leaks no secret, and nothing reaches the emulator', async (t) => {
  const emulator = await startEmulator({
    listen: { host: '127.0.0.1', port: 0 },
    keys: new Map([[BILLING.accessKeyId, { secret: Buffer.from(BILLING.secret), customerId: 12345 }]]),
  });
  t.teardown(() => emulator.close());
  const sc = await sidecar(t, emulator.url, { billing: { keys: [BILLING], operations: ['getCustomer'] } });
  const refused = [
    await send(`${sc.proxyUrl}${DELETE_RATE_LIMIT}`, { method: 'DELETE' }),
    await send(`${sc.proxyUrl}/_emulator/echo/x`, {
      headers: { Authorization: `HMAC-SHA256 ${BILLING.accessKeyId}:00`, 'X-SFD-Date': '20240101T000000Z' },
    }),
    await send(`${sc.proxyUrl}/v1.1/customer/12345`, { headers: { 'X-HTTP-Method': 'DELETE' } }),
    await send(`${sc.proxyUrl}/_emulator/echo/x`, { method: 'POST', body: '{}' }),
  ];
  for (const answer of refused) {
    t.is(answer.status, 403);
    const text = `${answer.body.toString('latin1')} ${answer.rawHeaders.join(' ')}`;
    t.is(answer.json<{ code: string }>().code, 'Sidecar.OperationForbidden');
    t.false(text.includes(BILLING.secret), text);
    t.notRegex(text, /HMAC-SHA256|signature":/i);
    t.regex(text, /billing/);
  }
  t.regex(refused[0]!.body.toString(), /deleteRateLimit/);
  t.regex(refused[0]!.body.toString(), /DELETE/);
  t.regex(refused[0]!.body.toString(), /\/cdn\/v1\.0\/services\/9\/rateLimit/);
  t.false(refused[1]!.body.toString().includes(BILLING.accessKeyId), 'the key id is not named');
  t.is(emulator.state.accepted.length, 0, 'a refused call reached the gateway');
  t.false(
    sc.logs.lines().some((l) => JSON.stringify(l).includes(BILLING.secret)),
    'a log line carries the secret',
  );
});
