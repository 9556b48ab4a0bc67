// How a listener's bound shares its places between callers, told apart by source address: at the bound
// a caller holding more than the newcomer's gives up a connection (the one holding the most first, its
// idle ones before its silent ones, however young), and otherwise the newcomer's own caller makes room or
// the newcomer is refused; no caller closes a connection of one holding as many or fewer. Real
// connections from loopback addresses on port 0; the bound's clock is the test's, so "silent for a
// second" needs no waiting.
import http from 'node:http';
import net from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type { ShedReason } from '../../src/server/connection-limit.js';
import { listenBounded, type BoundedListener } from '../helpers/bounded-listener.js';
import { eventually } from '../helpers/time.js';

interface Listener extends BoundedListener {
  /** Each connection closed or refused to make room: why, and whose. */
  readonly shed: string[];
  /** Requests for /hold in hand. */
  readonly holding: () => number;
}

async function listener(t: ExecutionContext, maxConnections: number): Promise<Listener> {
  let holding = 0;
  const server = http.createServer((request, response) => {
    // A request for /hold stays in hand until the test ends.
    if (request.url === '/hold') holding += 1;
    else response.end('ok');
  });
  const shed: string[] = [];
  const bounded = await listenBounded(t, server, {
    maxConnections,
    onShed: (reason: ShedReason, caller) => shed.push(`${reason} ${caller.address}`),
  });
  return {
    ...bounded,
    shed,
    holding: () => holding,
  };
}

interface Client {
  readonly closed: () => boolean;
}

/**
 * A connection from `from` that sends nothing (`silent`), one answered and kept alive (`idle`), or one
 * whose request stays in hand (`busy`); resolves once the listener counts it and, unless silent, has
 * answered or taken its request.
 */
async function connect(
  t: ExecutionContext,
  target: Listener,
  from: string,
  kind: 'silent' | 'idle' | 'busy',
): Promise<Client> {
  const openBefore = target.open();
  const holdingBefore = target.holding();
  const socket = net.connect({ port: target.port, host: '127.0.0.1', localAddress: from });
  let closed = false;
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  t.teardown(() => socket.destroy());
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  if (kind === 'idle') {
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await eventually(() => received.endsWith('ok') || closed);
  } else if (kind === 'busy') {
    socket.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n');
    await eventually(() => target.holding() > holdingBefore || closed);
  }
  await eventually(() => target.open() > openBefore || closed);
  return { closed: () => closed };
}

/** Whether a connection from `from` that asks GET / is answered (a place was made for it). */
async function answered(target: Listener, from: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: target.port, host: '127.0.0.1', localAddress: from });
    let received = '';
    socket.on('connect', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received.startsWith('HTTP/1.1 200')));
  });
}

const A = '127.0.0.1';
const B = '127.0.0.2';
const C = '127.0.0.3';

test('a caller holding fewer gets a place from the one holding the most, however young its connections', async (t) => {
  const target = await listener(t, 5);
  const a: Client[] = [];
  for (let i = 0; i < 3; i += 1) a.push(await connect(t, target, A, 'silent'));
  const c = [await connect(t, target, C, 'silent'), await connect(t, target, C, 'silent')];
  t.true(await answered(target, B));
  t.deepEqual(target.shed, [`unused ${A}`]);
  await eventually(() => a[0]!.closed());
  t.deepEqual(
    [...a, ...c].map((client) => client.closed()),
    [true, false, false, false, false],
    'the oldest silent connection of the caller holding the most went',
  );
});

test("a heavier caller's idle connections go before its silent ones", async (t) => {
  const target = await listener(t, 3);
  const silent = await connect(t, target, A, 'silent');
  const idle = await connect(t, target, A, 'idle');
  await connect(t, target, A, 'silent');
  t.true(await answered(target, B));
  t.deepEqual(target.shed, [`idle ${A}`]);
  t.true(await eventually(() => idle.closed()), 'its idle connection went');
  t.false(silent.closed());
});

test('a caller holding the most closes only its own connections, or is refused when none can go', async (t) => {
  const target = await listener(t, 3);
  const others = [await connect(t, target, B, 'idle')];
  const own = [await connect(t, target, A, 'silent'), await connect(t, target, A, 'silent')];
  t.false(await answered(target, A), 'its silent connections are younger than a second: refused');
  t.deepEqual(target.shed, [`refused ${A}`]);
  target.advanceClock(1000);
  t.true(await answered(target, A), 'its oldest silent one made room');
  t.deepEqual(target.shed, [`refused ${A}`, `unused ${A}`]);
  await eventually(() => own[0]!.closed());
  t.deepEqual(
    [...others, ...own].map((client) => client.closed()),
    [false, true, false],
  );
});

test("callers holding as many: the newcomer's own caller makes room", async (t) => {
  const target = await listener(t, 5);
  const a: Client[] = [];
  for (let i = 0; i < 3; i += 1) a.push(await connect(t, target, A, 'idle'));
  const b = [await connect(t, target, B, 'idle'), await connect(t, target, B, 'silent')];
  t.true(await answered(target, B), 'with the newcomer, it holds as many as the other');
  t.deepEqual(target.shed, [`idle ${B}`]);
  await eventually(() => b[0]!.closed());
  t.deepEqual(
    [...a, ...b].map((client) => client.closed()),
    [false, false, false, true, false],
  );
});

test('a caller whose every connection carries a request is passed over for the next one holding more', async (t) => {
  const target = await listener(t, 5);
  const busy: Client[] = [];
  for (let i = 0; i < 3; i += 1) busy.push(await connect(t, target, A, 'busy'));
  const c = [await connect(t, target, C, 'silent'), await connect(t, target, C, 'silent')];
  t.true(await answered(target, B));
  t.deepEqual(target.shed, [`unused ${C}`]);
  await eventually(() => c[0]!.closed());
  t.deepEqual(
    [...busy, ...c].map((client) => client.closed()),
    [false, false, false, true, false],
  );
});
