// A TLS listener's connection bound (the injector's webhook): the TLS socket a request arrives on is
// matched to the connection the server accepted under it, so a connection carrying a request is never
// closed as a silent one, an idle one is closed to make room, and the open count stays true. Real TLS
// connections on port 0; the bound's clock is the test's, so "silent for a second" needs no waiting.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import tls from 'node:tls';
import test, { type ExecutionContext } from 'ava';
import type { ShedReason } from '../../src/server/connection-limit.js';
import { listenBounded, type BoundedListener } from '../helpers/bounded-listener.js';
import { eventually } from '../helpers/time.js';
import { selfSignedCertificate } from '../helpers/tls-server.js';

interface TlsListener extends BoundedListener {
  readonly ca: Buffer;
  /** Answers to `/hold` requests, kept open until the test ends them. */
  readonly held: ServerResponse[];
  readonly shed: ShedReason[];
}

async function tlsListener(t: ExecutionContext, maxConnections: number): Promise<TlsListener> {
  const { keyFile, certFile } = await selfSignedCertificate('localhost');
  const held: ServerResponse[] = [];
  const server = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
    if (req.url === '/hold') held.push(res);
    else res.end('ok');
  });
  const shed: ShedReason[] = [];
  const bounded = await listenBounded(t, server, { maxConnections, onShed: (reason) => shed.push(reason) });
  return {
    ...bounded,
    ca: readFileSync(certFile),
    held,
    shed,
  };
}

/** A GET over a keep-alive agent of its own: the answer's status and body, and the connection it used. */
function get(
  t: ExecutionContext,
  listener: TlsListener,
  path: string,
): Promise<{ status: number; body: string; socket: Socket }> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: listener.ca });
  t.teardown(() => agent.destroy());
  return new Promise((resolve, reject) => {
    https
      .get({ host: '127.0.0.1', servername: 'localhost', port: listener.port, path, agent }, (response) => {
        // Taken now: once the answer ends, its connection goes back to the agent and the link is cut.
        const socket = response.socket;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, socket }));
      })
      .on('error', reject);
  });
}

/** Opens a TLS connection and resolves once the listener has closed it. */
function closedByListener(listener: TlsListener): Promise<void> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port: listener.port, servername: 'localhost', ca: listener.ca });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

test('at the bound, a TLS connection carrying a request is never closed as a silent one', async (t) => {
  const listener = await tlsListener(t, 1);
  const answer = get(t, listener, '/hold');
  t.true(await eventually(() => listener.held.length === 1), 'the request reached the handler');
  listener.advanceClock(5000);

  await closedByListener(listener);
  t.deepEqual(listener.shed, ['refused'], 'the newcomer was turned away');
  listener.held[0]!.end('done');
  const { status, body } = await answer;
  t.is(status, 200);
  t.is(body, 'done', 'the request in hand was answered in full');
  t.is(listener.open(), 1);
});

test('at the bound, the longest idle TLS connection is closed to make room; the open count stays true', async (t) => {
  const listener = await tlsListener(t, 2);
  const first = await get(t, listener, '/');
  const firstClosed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));
  await get(t, listener, '/');
  t.is(listener.open(), 2);

  const third = await get(t, listener, '/');
  t.is(third.status, 200);
  await firstClosed;
  t.deepEqual(listener.shed, ['idle']);
  t.is(listener.open(), 2, 'two connections are open: the second and the third');
});
