// One caller cannot take another's places on a listener: a caller churning hundreds of half-open
// connections from one address (re-opening each as it is cut) fails none of the kubelet's probes from
// another address, never closes Prometheus's kept-alive connection, and keeps none of the service's
// callbacks out of the relay. The callers are told apart by their source address on loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { recordingEvent } from '../../src/notify/build-events.js';
import { startNotifyRelay } from '../../src/notify/start-notify-relay.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { churnConnections } from '../helpers/connection-churn.js';
import { send, type SendOptions } from '../helpers/http.js';
import { captureLogs } from '../helpers/log-capture.js';
import { relayConfig } from '../helpers/relay-config.js';
import { startStack } from '../helpers/stack.js';
import { startTestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/time.js';

const ATTACKER = '127.0.0.1';
const KUBELET = '127.0.0.2';
const PROMETHEUS = '127.0.0.3';
const INGRESS = '127.0.0.4';

/** The status of a GET on a connection of its own, as the kubelet probes; 0 when it got no answer. */
async function probe(url: string): Promise<number> {
  try {
    return (await send(url, { localAddress: KUBELET })).status;
  } catch {
    return 0;
  }
}

/** The status of one callback posted to the relay (0 when it got no answer): the event of recording `index`. */
async function callback(
  port: number,
  index: number,
  via: Pick<SendOptions, 'agent' | 'localAddress'>,
): Promise<number> {
  const event = recordingEvent({
    status: 'started',
    recordingId: `rec-${index}`,
    streamId: 'stream-1',
    startedMs: Date.now(),
    nowMs: Date.now(),
  });
  try {
    const answer = await send(`http://127.0.0.1:${port}/notifications`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-SFD-Notification-From': 'LLS' },
      body: JSON.stringify(event),
      ...via,
    });
    return answer.status;
  } catch {
    return 0;
  }
}

/** A scrape over Prometheus's kept-alive connection: its status (0 for none) and the connection it used. */
function scrape(url: string, agent: http.Agent): Promise<{ status: number; socket: unknown }> {
  return new Promise((resolve) => {
    let socket: unknown = null;
    const request = http.get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, socket }));
    });
    request.on('socket', (used) => (socket = used));
    request.on('error', () => resolve({ status: 0, socket }));
  });
}

test(
  "a caller churning half-open connections to the admin listener fails none of the kubelet's probes and " +
    "never closes Prometheus's connection",
  async (t) => {
    const { sidecar, adminUrl } = await startStack(t);
    const attacker = churnConnections({ port: sidecar.adminAddress.port, from: ATTACKER, connections: 300 });
    t.teardown(attacker.stop);
    // 300 connections to a bound of 128: once as many have been cut, the listener has been full a while.
    t.true(await eventually(() => attacker.cut() >= 300), 'the churn is under way');
    const prometheus = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: PROMETHEUS });
    t.teardown(() => prometheus.destroy());
    const cutBefore = attacker.cut();
    const failed: string[] = [];
    const scrapeConnections = new Set<unknown>();
    for (let round = 0; round < 10; round += 1) {
      for (const path of ['/healthz', '/readyz']) {
        const status = await probe(`${adminUrl}${path}`);
        if (status !== 200) failed.push(`${path} ${status}`);
      }
      const { status, socket } = await scrape(`${adminUrl}/metrics`, prometheus);
      if (status !== 200) failed.push(`/metrics ${status}`);
      scrapeConnections.add(socket);
    }
    t.deepEqual(failed, [], 'every probe and scrape was answered 200');
    t.is(scrapeConnections.size, 1, 'every scrape went over the one kept-alive connection');
    t.true(attacker.cut() > cutBefore, 'the churn went on while the probes ran');
  },
);

test("a caller churning half-open connections to the relay keeps none of the service's callbacks out", async (t) => {
  const app = await startTestApp(t);
  const relay = await startNotifyRelay(relayConfig(app.url), {
    logger: captureLogs().logger,
    metrics: createMetrics(),
    now: Date.now,
  });
  t.teardown(() => relay.close(0));
  const attacker = churnConnections({ port: relay.address.port, from: ATTACKER, connections: 600 });
  t.teardown(attacker.stop);
  // 600 connections to a bound of 256.
  t.true(await eventually(() => attacker.cut() >= 600), 'the churn is under way');
  const ingress = new http.Agent({ keepAlive: true, maxSockets: 4, localAddress: INGRESS });
  t.teardown(() => ingress.destroy());
  const cutBefore = attacker.cut();
  const statuses = await Promise.all(
    Array.from({ length: 20 }, (_, index) => callback(relay.address.port, index, { agent: ingress })),
  );
  t.deepEqual(
    statuses.filter((status) => status !== 200),
    [],
    'every callback was answered 200',
  );
  t.is(app.received.length, 20, 'and delivered');
  t.true(attacker.cut() > cutBefore, 'the churn went on while the callbacks came');
});

test('a caller that is the only one may hold every place: the relay behind an ingress', async (t) => {
  // The application answers once all six callbacks are in hand: six connections from one address at once.
  const waiting: http.ServerResponse[] = [];
  const app = http.createServer((request, response) => {
    request.resume();
    waiting.push(response);
    if (waiting.length === 6) for (const held of waiting) held.end();
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  t.teardown(() => app.closeAllConnections());
  t.teardown(() => app.close());
  const appPort = (app.address() as AddressInfo).port;
  const relay = await startNotifyRelay(relayConfig(`http://127.0.0.1:${appPort}/hooks`, { maxConnections: 6 }), {
    logger: captureLogs().logger,
    metrics: createMetrics(),
    now: Date.now,
  });
  t.teardown(() => relay.close(0));
  const statuses = await Promise.all(
    Array.from({ length: 6 }, (_, index) => callback(relay.address.port, index, { localAddress: INGRESS })),
  );
  t.deepEqual(statuses, [200, 200, 200, 200, 200, 200]);
});
