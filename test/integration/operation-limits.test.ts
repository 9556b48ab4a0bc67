// A profile signs only the operations it may, through real sockets: the key store is the hard limit and
// SFD_OPERATIONS (what the injection writes) only narrows it; a call outside is answered 403
// Sidecar.OperationForbidden and never reaches the gateway, whatever spelling its target takes; a dry
// run signs it and counts it; a reload changes the limit under load without failing an allowed call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { parseOperationsSetting } from '../../src/operations/operations-setting.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { send } from '../helpers/http.js';
import { keystoreJson, startKeyStoreSidecar } from '../helpers/keystore-stack.js';
import { startKeyedEmulator } from '../helpers/stack.js';
import { createSecretVolume } from '../helpers/kubelet-volume.js';
import { eventually } from '../helpers/time.js';

const KEY = { accessKeyId: 'AKOPERATIONS1', secret: 'operations-secret-0123456789' };
const REPORTS = { methods: ['GET'], paths: ['/_emulator/echo/reports/*'] };

async function sidecarWith(
  t: ExecutionContext,
  upstreamUrl: string,
  limit: { operations?: readonly unknown[]; enforce?: boolean },
  narrowing?: string,
) {
  const volume = createSecretVolume({
    'keystore.json': keystoreJson({ billing: { keys: [KEY], ...limit } }),
  });
  const operations = narrowing === undefined ? undefined : parseOperationsSetting(narrowing);
  if (operations && !operations.ok) throw new Error(operations.allowed);
  const sidecar = await startKeyStoreSidecar(t, {
    keystorePath: volume.path('keystore.json'),
    upstreamUrl,
    defaultProfile: 'billing',
    ...(operations ? { operations: operations.value } : {}),
  });
  return { ...sidecar, volume };
}

const metrics = async (adminUrl: string) => parseExposition((await send(`${adminUrl}/metrics`)).body.toString());

test('the key store limits what a profile signs: allowed calls verified by the gateway, others refused', async (t) => {
  const emulator = await startKeyedEmulator(t, { [KEY.accessKeyId]: KEY.secret });
  const sidecar = await sidecarWith(t, emulator.url, { operations: ['getCustomer', REPORTS] });
  t.is((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`)).status, 200);
  t.is((await send(`${sidecar.proxyUrl}/_emulator/echo/reports/2024`)).status, 200);
  t.is((await send(`${sidecar.proxyUrl}/_emulator/echo/reports/2024`, { method: 'HEAD' })).status, 200);
  t.is(emulator.state.accepted.length, 3, 'each verified by the gateway');
  const refused = [
    await send(`${sidecar.proxyUrl}/cdn/v1.0/services/9/rateLimit`, { method: 'DELETE' }),
    await send(`${sidecar.proxyUrl}/_emulator/echo/reports/2024/summary`),
    await send(`${sidecar.proxyUrl}/_emulator/echo/reports/2024`, { method: 'POST', body: '{}' }),
    await send(`${sidecar.proxyUrl}/v1.1/customer/12345`, { headers: { 'X-HTTP-Method-Override': 'DELETE' } }),
  ];
  for (const answer of refused) {
    t.is(answer.status, 403);
    t.is((JSON.parse(answer.body.toString()) as { code: string }).code, 'Sidecar.OperationForbidden');
  }
  t.regex(
    refused[0]!.body.toString(),
    /operation deleteRateLimit \(DELETE \/cdn\/v1\.0\/services\/9\/rateLimit\) is not one profile billing may sign/,
  );
  t.regex(refused[3]!.body.toString(), /X-HTTP-Method-Override|x-http-method-override/i);
  t.is(emulator.state.accepted.length, 3, 'nothing refused reached the gateway');
  const samples = await metrics(sidecar.adminUrl);
  const refusal = { profile: 'billing', operation: 'deleteRateLimit', mode: 'enforced' };
  t.is(valueOf(samples, 'sfd_operation_refusals_total', refusal), 1);
  t.is(valueOf(samples, 'sfd_sidecar_errors_total', { code: 'Sidecar.OperationForbidden' }), 4);
  t.is(
    valueOf(samples, 'sfd_requests_total', {
      profile: 'billing',
      operation: 'deleteRateLimit',
      method: 'DELETE',
      status: '403',
    }),
    1,
  );
  const lines = sidecar.logs
    .lines()
    .filter((l) => l.event === 'request' && l.errorCode === 'Sidecar.OperationForbidden');
  t.is(lines.length, 4);
  t.like(lines[0], { operation: 'deleteRateLimit', profile: 'billing', path: '/cdn/v1.0/services/9/rateLimit' });
});

test('a path override header is refused where a limit applies, and forwarded where none does', async (t) => {
  const emulator = await startKeyedEmulator(t, { [KEY.accessKeyId]: KEY.secret });
  const limited = await sidecarWith(t, emulator.url, { operations: ['getCustomer'] });
  for (const header of ['X-Original-URL', 'x-rewrite-url', 'X_ORIGINAL_URL', 'X-Rewrite_Url']) {
    const answer = await send(`${limited.proxyUrl}/v1.1/customer/12345`, {
      headers: { [header]: '/cdn/v1.0/services/1/rateLimit' },
    });
    t.is(answer.status, 403, header);
    t.is((JSON.parse(answer.body.toString()) as { code: string }).code, 'Sidecar.OperationForbidden');
    t.regex(answer.body.toString(), new RegExp(`${header} would change the path judged`, 'i'));
  }
  t.is(emulator.state.accepted.length, 0, 'nothing refused reached the gateway');
  t.is((await send(`${limited.proxyUrl}/v1.1/customer/12345`)).status, 200);
  const open = await sidecarWith(t, emulator.url, {});
  const forwarded = await send(`${open.proxyUrl}/v1.1/customer/12345`, {
    headers: { 'X-Original-URL': '/v1.1/customer/12345' },
  });
  t.is(forwarded.status, 200, 'a profile without a limit forwards it');
});
test('SFD_OPERATIONS narrows within the key store, never widens it, and names every profile it allows', async (t) => {
  const emulator = await startKeyedEmulator(t, { [KEY.accessKeyId]: KEY.secret });
  const narrowed = await sidecarWith(t, emulator.url, {}, '{"billing":{"operations":["getCustomer"]}}');
  t.is((await send(`${narrowed.proxyUrl}/v1.1/customer/12345`)).status, 200);
  t.is((await send(`${narrowed.proxyUrl}/_emulator/echo/reports/1`)).status, 403);
  const wider = await sidecarWith(t, emulator.url, { operations: ['getCustomer'] }, '{"billing":"*"}');
  t.is((await send(`${wider.proxyUrl}/_emulator/echo/reports/1`)).status, 403, 'the key store stays the limit');
  const unnamed = await sidecarWith(t, emulator.url, {}, '{"other":"*"}');
  t.is((await send(`${unnamed.proxyUrl}/v1.1/customer/12345`)).status, 403, 'a profile it does not name signs nothing');
});

test('a dry run signs the call, counts it and says so; in the key store or in the narrowing alike', async (t) => {
  const emulator = await startKeyedEmulator(t, { [KEY.accessKeyId]: KEY.secret });
  for (const [limit, narrowing] of [
    [{ operations: ['getCustomer'], enforce: false }, undefined],
    [{}, '{"billing":{"operations":["getCustomer"],"enforce":false}}'],
  ] as const) {
    const sidecar = await sidecarWith(t, emulator.url, limit, narrowing);
    t.is((await send(`${sidecar.proxyUrl}/_emulator/echo/reports/1`)).status, 200);
    const samples = await metrics(sidecar.adminUrl);
    t.is(
      valueOf(samples, 'sfd_operation_refusals_total', { profile: 'billing', operation: 'other', mode: 'dry-run' }),
      1,
    );
    t.true(sidecar.logs.lines().some((l) => /signed: the limit is a dry run/.test(String(l.event))));
  }
  const enforced = await sidecarWith(
    t,
    emulator.url,
    { operations: ['getCustomer'] },
    '{"billing":{"operations":["getCustomer"],"enforce":false}}',
  );
  t.is(
    (await send(`${enforced.proxyUrl}/_emulator/echo/reports/1`)).status,
    403,
    'a dry run never relaxes the key store',
  );
});

test('a reload of the key store changes the operations under load, and no allowed call fails', async (t) => {
  const emulator = await startKeyedEmulator(t, { [KEY.accessKeyId]: KEY.secret });
  const sidecar = await sidecarWith(t, emulator.url, { operations: ['getCustomer', REPORTS] });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const statuses: number[] = [];
  let running = true;
  const loops = Array.from({ length: 4 }, async () => {
    while (running) statuses.push((await send(`${sidecar.proxyUrl}/v1.1/customer/12345`, { agent })).status);
  });
  t.true(await eventually(() => statuses.length > 20));
  t.is((await send(`${sidecar.proxyUrl}/_emulator/echo/reports/1`)).status, 200);
  sidecar.volume.update({ 'keystore.json': keystoreJson({ billing: { keys: [KEY], operations: ['getCustomer'] } }) });
  t.true(await eventually(async () => (await send(`${sidecar.proxyUrl}/_emulator/echo/reports/1`)).status === 403));
  const seen = statuses.length;
  t.true(await eventually(() => statuses.length > seen + 20));
  running = false;
  await Promise.all(loops);
  agent.destroy();
  t.deepEqual(new Set(statuses), new Set([200]));
});

/** A gateway that answers 200 to anything, and records each request it received. */
async function recordingGateway(t: ExecutionContext) {
  const received: { method: string; url: string }[] = [];
  const server = http.createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '' });
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** Sends a request line as written, whatever its target's form. */
function raw(proxyUrl: string, method: string, target: string): Promise<number> {
  const url = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path: target, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

/** A path as a lenient server reads it: `\\` as `/`, `;` parameters dropped, percent-escapes decoded. */
function asLenientServerReads(path: string): string[] {
  return path
    .replaceAll('\\', '/')
    .split('/')
    .map((segment) => {
      const plain = segment.split(';')[0]!;
      try {
        return decodeURIComponent(plain);
      } catch {
        return plain;
      }
    });
}

const climbs = (path: string) => asLenientServerReads(path).some((segment) => segment === '.' || segment === '..');

/**
 * The limit as its words state it, apart from the product: a customer read, or a read of one report
 * under /v1/reports, judged on the path as a lenient server would read it.
 */
function allowedOnceRead(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  // A dot segment moves the call elsewhere once the server resolves it.
  if (climbs(path)) return false;
  const segments = asLenientServerReads(path);
  const customer = /^\/v1\.[12]\/customer(\/[0-9]+)?\/?$/.test(segments.join('/'));
  const report = segments.length === 4 && segments[1] === 'v1' && segments[2] === 'reports' && segments[3] !== '';
  return customer || (report && !segments[3]!.includes('/'));
}

const plainSegments = (path: string) => /^[/A-Za-z0-9._~-]*$/.test(path);

test('no target spelling gets a call outside the limit to the gateway (property, independent matcher)', async (t) => {
  const upstream = await recordingGateway(t);
  const sidecar = await sidecarWith(t, upstream.url, {
    operations: ['getCustomer', { methods: ['GET'], paths: ['/v1/reports/*'] }],
  });
  const authority = new URL(upstream.url).host;
  const segment = fc.constantFrom(
    'v1',
    'reports',
    'v1.1',
    'customer',
    '12345',
    '2024',
    '%2F',
    '%2e%2e',
    '..',
    '.',
    'a;b',
    'a%3Bb',
    'a\\b',
    '',
    '%41',
    'A',
    'x~y',
    'rateLimit',
    'cdn',
    'v1.0',
    'services',
    '9',
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE', 'PUT'),
      // Near misses of the allowed shapes are the interesting inputs, so half the paths start as one.
      fc.oneof(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc
          .tuple(
            fc.constantFrom(['v1', 'reports'], ['v1.1', 'customer'], ['v1.2', 'customer']),
            fc.array(segment, { maxLength: 2 }),
          )
          .map(([head, tail]) => [...head, ...tail]),
      ),
      fc.constantFrom('origin', 'absolute', 'absolute-upper'),
      fc.option(fc.constantFrom('a=1', 'x=%2F', ''), { nil: undefined }),
      async (method, segments, form, query) => {
        const path = `/${segments.join('/')}`;
        const origin = query === undefined ? path : `${path}?${query}`;
        const target = form === 'origin' ? origin : `${form === 'absolute' ? 'http' : 'HTTP'}://${authority}${origin}`;
        const before = upstream.received.length;
        const status = await raw(sidecar.proxyUrl, method, target);
        const reached = upstream.received.slice(before);
        if (reached.length > 0) {
          // What reached the gateway is a call the limit allows however the gateway reads it, and it
          // went on the path the caller wrote.
          const receivedPath = reached[0]!.url.split('?')[0]!;
          return reached.length === 1 && status === 200 && receivedPath === path && allowedOnceRead(method, path);
        }
        // Refusing a plainly written allowed call would be a defect; an unusual spelling, caution.
        if (plainSegments(path) && allowedOnceRead(method, path)) return false;
        return status === 403 || (status === 400 && (climbs(path) || !plainSegments(path)));
      },
    ),
    { numRuns: 600 },
  );
  t.pass();
});
