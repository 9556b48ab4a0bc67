// Every listener holds a bounded number of connections. At the bound a new connection makes room: the
// longest idle kept-alive connection goes first, then the oldest that has sent nothing; a connection
// carrying a request is never closed, and when all of them are busy the newcomer gets 503
// Sidecar.ConnectionsFull. Probes and signing keep answering through any number of idle connections.
import net from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { DEFAULT_LIMITS } from '../../src/config/limits-config.js';
import { parseExposition, valueOf } from '../helpers/exposition.js';
import { rawExchange, send, statusOf } from '../helpers/http.js';
import { eventually, sleep } from '../helpers/time.js';
import { startSlowUpstream } from '../helpers/slow-upstream.js';
import { startStack, startTestSidecar, toUpstream } from '../helpers/stack.js';

/** A raw connection that sends `payload` (if any), reads what comes and stays open until closed by either side. */
interface Held {
  readonly received: () => string;
  readonly closed: () => boolean;
}

async function hold(t: ExecutionContext, port: number, payload: string | null): Promise<Held> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  t.teardown(() => socket.destroy());
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  if (payload !== null) {
    socket.write(payload);
    await eventually(() => received.includes('\r\n\r\n') || closed);
  }
  return { received: () => received, closed: () => closed };
}

async function scrape(adminUrl: string) {
  return parseExposition((await send(`${adminUrl}/metrics`)).body.toString());
}

const HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';

test(
  'idle keep-alive connections past the admin bound are ' + 'closed, longest idle first, and probes keep answering',
  async (t) => {
    const { sidecar, adminUrl, proxyUrl } = await startStack(t, {
      sidecar: { limits: { ...DEFAULT_LIMITS, adminMaxConnections: 10 } },
    });
    const port = sidecar.adminAddress.port;
    const held: Held[] = [];
    for (let i = 0; i < 40; i += 1) held.push(await hold(t, port, HEALTHZ));
    t.true(
      held.every((h) => statusOf(h.received()) === 200),
      'each was answered before it went idle',
    );
    t.true(await eventually(() => held.slice(0, 30).every((h) => h.closed())), 'the 30 longest idle were closed');
    t.false(held.at(-1)!.closed(), 'the newest stays open');
    t.is((await send(`${adminUrl}/healthz`)).status, 200);
    t.is((await send(`${proxyUrl}/v1.1/customer/12345`)).status, 200, 'signing is not affected');
    const samples = await scrape(adminUrl);
    t.true(valueOf(samples, 'sfd_connections_open', { listener: 'admin' })! <= 10);
    t.true(valueOf(samples, 'sfd_connections_shed_total', { listener: 'admin', reason: 'idle' })! >= 30);
    t.is(valueOf(samples, 'sfd_connections_shed_total', { listener: 'admin', reason: 'refused' }), 0);
  },
);

test(
  'a connection silent for a second is closed to make room; younger silent ones are not, and the newcomer is ' +
    'refused',
  async (t) => {
    const { sidecar, adminUrl } = await startStack(t, {
      sidecar: { limits: { ...DEFAULT_LIMITS, adminMaxConnections: 5 } },
    });
    const port = sidecar.adminAddress.port;
    const silent: Held[] = [];
    for (let i = 0; i < 5; i += 1) silent.push(await hold(t, port, null));
    // Within their first second they may be callers about to send: the newcomer is refused instead.
    const early = await rawExchange(port, HEALTHZ);
    t.is(statusOf(early), 503);
    t.regex(early, /Sidecar\.ConnectionsFull/);
    // A fixed pause: a connection becomes sheddable by being silent for a second, which no event marks,
    // and asking earlier would be refused and counted.
    await sleep(1100);
    t.is(statusOf(await rawExchange(port, HEALTHZ)), 200, 'the oldest silent one made room');
    t.true(silent[0]!.closed());
    const samples = await scrape(adminUrl);
    t.is(valueOf(samples, 'sfd_connections_shed_total', { listener: 'admin', reason: 'unused' }), 1);
    t.is(valueOf(samples, 'sfd_connections_shed_total', { listener: 'admin', reason: 'refused' }), 1);
  },
);

test(
  'when every connection carries a request, a new one gets ' + '503 Sidecar.ConnectionsFull; requests in flight finish',
  async (t) => {
    const upstream = await startSlowUpstream(t, 800);
    const { sidecar, proxyUrl, adminUrl } = await startTestSidecar(t, {
      defaultUpstream: toUpstream(upstream.url),
      limits: { ...DEFAULT_LIMITS, maxConnections: 3 },
    });
    const inFlight = [1, 2, 3].map(() => send(`${proxyUrl}/v1.1/customer/12345`));
    await eventually(() => upstream.stats.total === 3);
    const refused = await rawExchange(
      sidecar.proxyAddress.port,
      'GET /v1.1/customer/12345 HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    t.is(statusOf(refused), 503);
    t.regex(refused, /"code":"Sidecar\.ConnectionsFull"/);
    t.regex(refused, /x-sfd-trace-id: [0-9a-f]{32}/);
    t.deepEqual(
      (await Promise.all(inFlight)).map((a) => a.status),
      [200, 200, 200],
    );
    t.is((await send(`${proxyUrl}/v1.1/customer/12345`)).status, 200, 'room again once they are done');
    t.is(valueOf(await scrape(adminUrl), 'sfd_connections_shed_total', { listener: 'signing', reason: 'refused' }), 1);
  },
);
